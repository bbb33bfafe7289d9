import { activate, type ActivateApproval, type ActivateOptions, type ActivateResult, type ActivateStep } from './activate.js';
import { clickWords, fillWords } from './effect-words.js';
import { checkFenceTimes } from './effect-fence.js';
import { fill, type FillResult, type SecretSource } from './fill.js';
import { isSecretField, PRIVATE_ATTRIBUTE } from './element-state.js';
import { closestAcross } from './flat-tree.js';
import { resolveTarget } from './resolve-target.js';

/** What a page tool gets from the loop besides its arguments: structurally `LoopToolContext` (only `confirm` is used). */
export interface PageToolContext {
  /** Asks the user about a step riskier than the tool declared (the loop's `context.confirm`). */
  readonly confirm?: ((step: ActivateStep) => Promise<ActivateApproval> | ActivateApproval) | undefined;
}

/** One page tool, in the shape `runWebAgent`'s `tools` take. */
export interface PageTool<R> {
  readonly risk: 'write';
  /** The one line the model sees. */
  readonly description: string;
  /** The words the user is asked to approve, from the page (the element's role and visible name), never from the model's words. */
  readonly describe: (args: Record<string, unknown>) => string;
  readonly run: (args: Record<string, unknown>, context?: PageToolContext) => Promise<R>;
}

/** The page tools, by the names the model calls them (a type, not an interface: it is assignable to `runWebAgent`'s `tools` as it is). */
export type PageTools = {
  /** `click {target}`: clicks through `activate`. */
  click: PageTool<ActivateResult>;
  /** `fill {target, value}`: types through `fill`. */
  fill: PageTool<FillResult>;
};

/** Options of {@link createPageTools}: those of `activate` (where to look, origins, downloads, the fence, consequential words) and `fill`'s secrets. */
export interface PageToolsOptions extends Omit<ActivateOptions, 'confirm'> {
  /** The secrets a model may name (never see) in `fill`: `{{secret:name}}`. Default: none. */
  secrets?: SecretSource | undefined;
}

const PLACEHOLDER = /\{\{\s*secret\s*:\s*[\w.-]+\s*\}\}/;

/**
 * `click` and `fill` tools for `runWebAgent`, wired to `activate` and `fill` with the loop's
 * `context.confirm`, each with a `describe(args)` that words the action from the page: the ref is
 * resolved and the element named by its role and visible name (`Click the button "Delete
 * account"`, `Type "Ada" into the field "Name"`, `Type a saved secret into the field "Password"`),
 * so the user approves what will really be clicked, not what the model says it is. What a click
 * or typing sets off is held by the effect fence and asked about in its own words (`It sends a
 * DELETE to /api/account`). Both declare `risk: 'write'`; a click that is irreversible (a form, a
 * new tab, leaving the site, a download, a consequential name) asks again as irreversible.
 * Defaults: those of `activate` and `fill` (refs only, same origin only, no downloads, no secrets).
 *
 * @example
 * ```ts
 * import { createLookTools, createPageTools, outlinePage, renderOutline } from 'planloop/dom';
 *
 * await runWebAgent({
 *   plan,
 *   task,
 *   tools: { ...createLookTools({ exclude: '#guide' }), ...createPageTools({ exclude: '#guide', secrets: { password: 'from-your-vault' } }) },
 *   observe: ({ maxTokens }) => renderOutline(outlinePage({ maxTokens, exclude: '#guide' })),
 *   onApprove: (request) => confirm(`${request.detail}?`),
 * });
 * ```
 */
export function createPageTools(options: PageToolsOptions = {}): PageTools {
  checkFenceTimes(options, 'createPageTools');
  const { secrets, ...shared } = options;
  const target = (args: Record<string, unknown>) => resolveTarget(args.target, shared);
  // The model's words are never the question: only a ref's own shape (e12) is repeated.
  const unknown = (args: Record<string, unknown>, verb: string) => {
    const given = typeof args.target === 'string' ? args.target.trim() : '';
    return `${verb} something the page does not show now${/^e\d{1,6}$/.test(given) ? ` (${given})` : ''}`;
  };
  return {
    click: {
      risk: 'write',
      description: 'click an element {target}',
      describe: (args) => {
        const found = target(args);
        return found.ok ? clickWords(found.element) : unknown(args, 'Click');
      },
      run: (args, context) => activate(String(args.target ?? ''), { ...shared, confirm: context?.confirm }),
    },
    fill: {
      risk: 'write',
      description: 'type into a field {target, value}; for a secret type {{secret:name}}',
      describe: (args) => {
        const found = target(args);
        if (!found.ok) return unknown(args, 'Type into');
        const value = typeof args.value === 'string' ? args.value : String(args.value ?? '');
        const secret = PLACEHOLDER.test(value) || isSecretField(found.element) || closestAcross(found.element, `[${PRIVATE_ATTRIBUTE}]`) !== null;
        return fillWords(found.element, value, secret);
      },
      run: (args, context) => fill(String(args.target ?? ''), args.value, { ...shared, ...(secrets ? { secrets } : {}), confirm: context?.confirm }),
    },
  };
}
