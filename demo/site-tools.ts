// The guide's tools on the Orbitly site: navigate, click and fill. Each takes the model's `args`,
// checks them, acts, and returns a short result the loop turns into an observation. They act on
// the site only (`#view` and the site links), never on the guide's own controls. Each declares its
// risk. A click goes through planloop/dom's `activate`: only what the outline showed, visible, on
// this site; a form submission asks the user first (the run's `confirm`).

import type { ActionRisk, ConfirmResult, ConfirmStep } from 'planloop';
import { activate, resolveTarget } from 'planloop/dom';
import { sleep, type Pace } from './pace.js';
import { SITE_PAGES, normalisePath, type SiteRouter } from './site.js';

/** What a site tool gets besides its args: the run's signal, and a way to ask before a riskier step. */
export interface SiteToolContext {
  signal?: AbortSignal | undefined;
  /** The run's `ctx.confirm`; without it (a tool called outside a run) a riskier step is refused. */
  confirm?: ((step: ConfirmStep) => Promise<ConfirmResult>) | undefined;
}

/** A tool: the model's args in, a result out; throwing makes an error observation. */
export type SiteTool = (args: Record<string, unknown>, context?: SiteToolContext) => Promise<unknown>;

/**
 * How consequential each tool is (see planloop's action policy): all three change the page, none
 * is irreversible by itself. A click that submits a form is, and asks the user at run time.
 */
export const SITE_TOOL_RISKS: Record<'navigate' | 'click' | 'fill', ActionRisk> = { navigate: 'write', click: 'write', fill: 'write' };

/** What each tool will do, in words for the user approving it. */
export const SITE_TOOL_DETAILS: Record<'navigate' | 'click' | 'fill', (args: Record<string, unknown>) => string> = {
  navigate: (args) => `Open the page ${String(args.path ?? args.url ?? '')}`,
  click: (args) => `Click ${String(args.target ?? args.selector ?? '')}`,
  fill: (args) => `Type "${String(args.value ?? '')}" into ${String(args.target ?? args.selector ?? '')}`,
};

/** What each tool does, for the model (the loop puts these in the per-turn prompt when it can). */
export const SITE_TOOL_DESCRIPTIONS = {
  navigate: 'Open a page of the site. args: { "path": "/commercial" }',
  click: 'Click an element of the page. args: { "target": "<ref from Page, e.g. e12>" }',
  fill: 'Type into a field or choose an option. args: { "target": "<ref from Page>", "value": "<text>" }',
} as const;

export function createSiteTools(options: { router: SiteRouter; view: HTMLElement; pace: () => Pace }): Record<'navigate' | 'click' | 'fill', SiteTool> {
  const { router, view } = options;

  const element = (args: Record<string, unknown>, tool: string): HTMLElement => {
    const target = typeof args.target === 'string' ? args.target : typeof args.selector === 'string' ? args.selector : '';
    if (!target) throw new Error(`${tool} needs args.target: a ref from the page outline (e12) or a CSS selector.`);
    // A ref that no longer resolves (the page changed) becomes an observation the model can act on.
    const found = resolveTarget(target, { root: view });
    if (!found.ok) throw new Error(`${tool} on ${router.path}: ${found.message}`);
    return found.element as HTMLElement;
  };

  return {
    async navigate(args) {
      const raw = typeof args.path === 'string' ? args.path : typeof args.url === 'string' ? args.url : '';
      const path = normalisePath(raw.replace(/^https?:\/\/[^/]+/i, ''));
      const page = SITE_PAGES.find((p) => p.path === path);
      if (!raw || !page) {
        throw new Error(`navigate: "${raw}" is not a page of this site; use one of ${SITE_PAGES.map((p) => p.path).join(', ')}.`);
      }
      await router.go(path);
      return { page: path, title: page.title };
    },

    async click(args, context = {}) {
      const { signal, confirm } = context;
      const target = element(args, 'click');
      const name = String(args.target ?? args.selector);
      target.scrollIntoView({ block: 'center', behavior: 'instant' as ScrollBehavior });
      target.classList.add('guide-highlight');
      await sleep(options.pace().actionPauseMs, signal);
      target.classList.remove('guide-highlight');
      // Sending a form cannot be taken back: activate asks the user first (the trial form's submit).
      const result = await activate(name, { root: view, confirm });
      if (!result.ok)
        return {
          clicked: false,
          ...(result.reason === 'denied' || result.reason === 'needs-approval' ? { notSent: result.message } : { refused: result.message }),
          page: router.path,
        };
      // Let a click that navigates or submits finish rendering before the next action.
      await sleep(0, signal);
      return { clicked: name, page: router.path };
    },

    async fill(args, context = {}) {
      const { signal } = context;
      const target = element(args, 'fill');
      const value = args.value === undefined ? '' : String(args.value);
      target.scrollIntoView({ block: 'center', behavior: 'instant' as ScrollBehavior });
      if (target instanceof HTMLSelectElement) {
        const option = Array.from(target.options).find((o) => o.value === value || o.textContent?.trim().toLowerCase() === value.toLowerCase());
        if (!option)
          throw new Error(`fill: "${value}" is not an option of ${String(args.target)}; options: ${Array.from(target.options, (o) => o.value).join(', ')}.`);
        target.value = option.value;
        target.dispatchEvent(new Event('change', { bubbles: true }));
        return { filled: String(args.target), value: option.value };
      }
      if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) {
        throw new Error(`fill: ${String(args.target)} is not a field (input, textarea or select).`);
      }
      target.focus();
      target.value = '';
      const delay = options.pace().typeDelayMs;
      if (delay === 0) target.value = value;
      else {
        for (const char of value) {
          target.value += char;
          target.dispatchEvent(new Event('input', { bubbles: true }));
          await sleep(delay, signal);
        }
      }
      target.dispatchEvent(new Event('input', { bubbles: true }));
      target.dispatchEvent(new Event('change', { bubbles: true }));
      target.blur();
      return { filled: String(args.target), value };
    },
  };
}
