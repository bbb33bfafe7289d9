// The tools every arm gets, acting on the page through Playwright (real clicks and typing), with
// targets resolved by planloop/dom's resolveTarget in the page: navigate, click, fill, read.
import type { Page } from '@playwright/test';
import type { LoopTool, LoopToolContext } from '../src/index.js';
import type { SitePage } from './task.js';

/** How risky a tool is, in the words of the loop's action policy (`risk` on a tool). */
export type EvalToolRisk = 'read' | 'write' | 'irreversible';

/** A tool as the eval defines it: `toLoopTools` turns it into the loop's shape. */
export interface EvalTool {
  readonly description: string;
  readonly risk: EvalToolRisk;
  run(args: Record<string, unknown>, context: LoopToolContext): Promise<string>;
}

/** One tool call as the harness saw it. */
export interface ToolCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** The page path it was made on. */
  readonly page: string;
  readonly ok: boolean;
  readonly result: string;
}

/** What a `read` showed, for the next turn's page text. */
export interface ReadNote {
  target: string;
  text: string;
}

const ACTION_TIMEOUT_MS = 5_000;
const READ_CHARS = 1_200;

/**
 * Path and hash of the page.
 *
 * @example
 * ```ts
 * pagePath(page); // '/docs/guide#install'
 * ```
 */
export function pagePath(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.hash}`;
}

/**
 * Resolves a target in the page, marks the element, and tells what it is. Refs, and (an opt-in the
 * eval makes: its scripted tasks name elements by id) the safe subset of CSS selectors. Its text
 * is what planloop/dom's `readableText` reads (the read look tool's): what a person can see, so
 * text hidden from sight (opacity 0, off-screen, clipped, same colour) is not read.
 */
async function locate(page: Page, target: unknown, tool: string) {
  if (typeof target !== 'string' || target.trim() === '') throw new Error(`${tool} needs args.target: a ref from the page outline (e12) or a CSS selector.`);
  const found = (await page.evaluate(`(() => {
    for (const old of document.querySelectorAll('[data-eval-target]')) old.removeAttribute('data-eval-target');
    const found = window.__planloopDom.resolveTarget(${JSON.stringify(target)}, { selectors: true });
    if (!found.ok) return { ok: false, message: found.message };
    const el = found.element;
    el.setAttribute('data-eval-target', '1');
    const options = el instanceof HTMLSelectElement ? Array.from(el.options).map((o) => ({ value: o.value, label: (o.textContent || '').trim() })) : [];
    const text = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.textContent || '') : window.__planloopDom.readableText(el, { maxChars: ${READ_CHARS + 1} }).text;
    return { ok: true, tag: el.tagName.toLowerCase(), type: el.getAttribute('type') || '', options, text: text.replace(/\\s+/g, ' ').trim() };
  })()`)) as { ok: false; message: string } | { ok: true; tag: string; type: string; options: { value: string; label: string }[]; text: string };
  if (!found.ok) throw new Error(`${tool} on ${pagePath(page)}: ${found.message}`);
  return { ...found, locator: page.locator('[data-eval-target="1"]').first() };
}

/** The page's live messages (alerts and status lines that have text): what a screen reader would announce. */
async function liveMessages(page: Page): Promise<string> {
  const texts = (await page.evaluate(
    `Array.from(document.querySelectorAll('[role=alert], [role=status]')).map((el) => (el.textContent || '').replace(/\\s+/g, ' ').trim()).filter(Boolean)`,
  )) as string[];
  return texts.length > 0 ? ` The page says: ${texts.join(' | ')}` : '';
}

/** Waits for a navigation a click or submit may have started. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
}

/**
 * The eval's tools on `page`, for a site at `origin` with `pages` (listed in navigate's
 * description). `onRead` keeps what `read` returned, for the next turn's page text; `ready` waits
 * until a page that starts up in script (the demo) has rendered, after each navigation. `risk` is
 * declared for the loop's action policy: without an approval hook, 'read' and 'write' tools run
 * (the eval measures the agent, not the policy).
 *
 * @example
 * ```ts
 * const tools = createBrowserTools(page, { origin, pages, onRead: (note) => (lastRead = note) });
 * await runWebAgent({ plan, task, tools: toLoopTools(tools, calls, page) });
 * ```
 */
export function createBrowserTools(
  page: Page,
  options: { origin: string; pages: readonly SitePage[]; onRead: (note: ReadNote) => void; ready?: (() => Promise<void>) | undefined },
): Record<string, EvalTool> {
  const { origin, pages } = options;
  return {
    navigate: {
      description: `open a page of this site {path}: ${pages.map((p) => p.path).join(', ')} (a #section may follow)`,
      risk: 'write', // it changes the page (the loop's 'read' is for tools that only look)
      async run(args) {
        const raw = typeof args.path === 'string' ? args.path : typeof args.url === 'string' ? args.url : '';
        if (!raw) throw new Error('navigate needs args.path, e.g. {"path":"/"}');
        const url = new URL(raw, `${origin}${new URL(page.url()).pathname}`);
        if (url.origin !== origin) throw new Error(`navigate: only pages of this site (${origin}); "${raw}" is elsewhere.`);
        const response = await page.goto(url.href, { timeout: ACTION_TIMEOUT_MS * 2 });
        await options.ready?.();
        const title = await page.title();
        const status = response && response.status() >= 400 ? ` (HTTP ${response.status()})` : '';
        return `now on ${pagePath(page)}${status}: "${title}"`;
      },
    },
    click: {
      description: 'click an element {target}: a ref from the page (e12) or a CSS selector',
      risk: 'write',
      async run(args) {
        const { locator } = await locate(page, args.target, 'click');
        await locator.click({ timeout: ACTION_TIMEOUT_MS });
        await settle(page);
        return `clicked; now on ${pagePath(page)}.${await liveMessages(page)}`;
      },
    },
    fill: {
      description: 'type into a field, choose an option or tick a box {target, value}',
      risk: 'write',
      async run(args) {
        const found = await locate(page, args.target, 'fill');
        const value = args.value === undefined || args.value === null ? '' : String(args.value);
        const { locator } = found;
        if (found.tag === 'select') {
          const wanted = value.trim().toLowerCase();
          const option =
            found.options.find((o) => o.value.toLowerCase() === wanted || o.label.toLowerCase() === wanted) ??
            found.options.find((o) => wanted !== '' && o.label.toLowerCase().includes(wanted));
          if (!option) throw new Error(`fill: no option "${value}"; the options are ${found.options.map((o) => o.label).join(', ')}.`);
          await locator.selectOption(option.value, { timeout: ACTION_TIMEOUT_MS });
          return `chose "${option.label}".${await liveMessages(page)}`;
        }
        if (found.type === 'checkbox' || found.type === 'radio') {
          const on = !/^(false|off|no|unchecked|uncheck|0)$/i.test(value.trim());
          if (on) await locator.check({ timeout: ACTION_TIMEOUT_MS });
          else if (found.type === 'checkbox') await locator.uncheck({ timeout: ACTION_TIMEOUT_MS });
          else throw new Error('fill: a radio button cannot be unticked; tick another one.');
          return `${on ? 'ticked' : 'unticked'}.${await liveMessages(page)}`;
        }
        if (!['input', 'textarea'].includes(found.tag)) throw new Error(`fill: ${String(args.target)} is a ${found.tag}, not a field.`);
        await locator.fill(value, { timeout: ACTION_TIMEOUT_MS });
        // A person's typing ends with leaving the field, which fires `change`; fill alone does not.
        await locator.dispatchEvent('change');
        return `typed "${value}".${await liveMessages(page)}`;
      },
    },
    read: {
      description: 'read the words of an element {target}, e.g. a section; they show under Page next turn',
      risk: 'read',
      async run(args) {
        const found = await locate(page, args.target, 'read');
        const text = found.text.length > READ_CHARS ? `${found.text.slice(0, READ_CHARS)}…` : found.text;
        options.onRead({ target: String(args.target), text });
        return `read ${text.length} characters; they are under Page.`;
      },
    },
  };
}

/**
 * The eval's tools in the loop's shape, with their `risk` for the action policy, recording every
 * call in `calls`.
 *
 * @example
 * ```ts
 * const calls: ToolCall[] = [];
 * runWebAgent({ plan, task, tools: toLoopTools(createBrowserTools(page, options), calls, page) });
 * ```
 */
export function toLoopTools(tools: Record<string, EvalTool>, calls: ToolCall[], page: Page): Record<string, LoopTool> {
  return Object.fromEntries(
    Object.entries(tools).map(([name, tool]) => [
      name,
      {
        description: tool.description,
        risk: tool.risk,
        run: async (args: Record<string, unknown>, context: LoopToolContext) => {
          const where = pagePath(page);
          try {
            const result = await tool.run(args, context);
            calls.push({ name, args, page: where, ok: true, result });
            return result;
          } catch (error) {
            const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
            calls.push({ name, args, page: where, ok: false, result: message });
            throw new Error(message);
          }
        },
      } satisfies LoopTool,
    ]),
  );
}
