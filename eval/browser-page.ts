// What the harness puts into every page it opens (planloop/dom for the outline and targets, and a
// recorder of visits, field changes and form submissions), and how it reads the end state.
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import type { EndState } from './task.js';

/**
 * Records, in sessionStorage under `__eval`, every page shown (loads, History API, hash changes),
 * every field change and every form submission with the form's status line right after (a task
 * later, or when the end state is read, whichever comes first: `__evalFlush`). Plain JavaScript in
 * a string: it runs in the page before the page's own scripts.
 */
const RECORDER = `(() => {
  if (window.__evalRecorder) return;
  window.__evalRecorder = true;
  // Status lines not read yet. The end state can be read before a timer set at the submit runs
  // (a run whose last action submits, on a quick machine: the CLI's runs read it at once): reading
  // the end state reads them first.
  const pending = [];
  window.__evalFlush = () => { for (const capture of pending.splice(0)) capture(); };
  const KEY = '__eval';
  const read = () => { try { return JSON.parse(sessionStorage.getItem(KEY)) || { visits: [], changes: [], submits: [] }; } catch { return { visits: [], changes: [], submits: [] }; } };
  const write = (log) => sessionStorage.setItem(KEY, JSON.stringify(log));
  const here = () => location.pathname + location.hash;
  const visit = () => { const log = read(); if (log.visits[log.visits.length - 1] !== here()) { log.visits.push(here()); write(log); } };
  visit();
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name];
    history[name] = function (...args) { const result = original.apply(this, args); visit(); return result; };
  }
  addEventListener('hashchange', visit);
  addEventListener('popstate', visit);
  document.addEventListener('change', (event) => {
    const el = event.target;
    if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement)) return;
    if (el.type === 'radio' && !el.checked) return;
    const value = el.type === 'checkbox' ? (el.checked ? 'on' : 'off') : el.value;
    const entry = { page: location.pathname, field: el.name || el.id || '', value };
    const log = read();
    const last = log.changes[log.changes.length - 1];
    if (last && last.page === entry.page && last.field === entry.field && last.value === entry.value) return;
    log.changes.push(entry);
    write(log);
  }, true);
  addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    const fields = {};
    for (const [key, value] of new FormData(form)) fields[key] = String(value);
    const log = read();
    const index = log.submits.push({ page: location.pathname, form: form.id, fields, status: '' }) - 1;
    write(log);
    let done = false;
    const capture = () => {
      if (done) return;
      done = true;
      const status = form.querySelector('[role=status]');
      const later = read();
      if (later.submits[index]) later.submits[index].status = status ? status.textContent.trim() : '';
      write(later);
    };
    pending.push(capture);
    setTimeout(capture, 0);
  });
})();`;

/** Reads the end state in the page: the recorder's log and the site's `app:*` storage. */
const READ_END_STATE = `(() => {
  window.__evalFlush?.();
  let log;
  try { log = JSON.parse(sessionStorage.getItem('__eval')); } catch {}
  log = log || { visits: [], changes: [], submits: [] };
  const store = {};
  for (const storage of [localStorage, sessionStorage]) {
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (!key || !key.startsWith('app:')) continue;
      const raw = storage.getItem(key);
      try { store[key] = JSON.parse(raw); } catch { store[key] = raw; }
    }
  }
  return { url: location.pathname + location.hash, visits: log.visits, changes: log.changes, submits: log.submits, store };
})()`;

let domBundle: Promise<string> | undefined;

/**
 * planloop/dom (src/dom/index.ts) bundled for the page as `window.__planloopDom`: the same
 * outline and target resolution an in-page agent uses. Built once per process with esbuild.
 *
 * @example
 * ```ts
 * await context.addInitScript({ content: await pageScripts() });
 * ```
 */
export function pageScripts(): Promise<string> {
  domBundle ??= (async () => {
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/dom/index.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: '__planloopDom',
      target: 'es2022',
      logLevel: 'silent',
      // Playwright runs an init script inside a function, so the global is set explicitly.
      footer: { js: 'globalThis.__planloopDom = __planloopDom;' },
    });
    return `${result.outputFiles[0]?.text ?? ''}\n${RECORDER}`;
  })();
  return domBundle;
}

/**
 * Adds the page scripts to a fresh browser context: every page it opens gets them first.
 *
 * @example
 * ```ts
 * const context = await browser.newContext();
 * await preparePage(context);
 * ```
 */
export async function preparePage(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: await pageScripts() });
}

/**
 * The end state of a run: what the page recorded and stored, plus what the agent said.
 *
 * @example
 * ```ts
 * const end = await readEndState(page, said);
 * checkTask(task, end);
 * ```
 */
export async function readEndState(page: Page, said: readonly string[]): Promise<EndState> {
  const raw = (await page.evaluate(READ_END_STATE)) as Omit<EndState, 'said'>;
  return { ...raw, said: [...said] };
}
