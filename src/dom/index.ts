/**
 * `planloop/dom`: what a turn sees of the page. {@link outlinePage} describes the visible page for
 * a model within a token budget, {@link renderOutline} writes it as compact text for the turn
 * prompt, and {@link resolveTarget} turns the refs it gives (`e12`), or a CSS selector, back into
 * elements for the tools; {@link createLookTools} gives the model read-only tools to see more
 * (expand a region, read a section's text, scroll), and {@link createPageTools} the click and fill
 * tools, whose effects {@link fenceEffects} holds until the user approves them. Nothing here
 * touches `document` or `window` at import.
 *
 * @example
 * ```ts
 * import { outlinePage, renderOutline, resolveTarget } from 'planloop/dom';
 *
 * const pageText = renderOutline(outlinePage({ root: document.body, maxTokens: 400 }));
 * const found = resolveTarget('e12');
 * if (found.ok) (found.element as HTMLElement).click();
 * else console.log(found.message);
 * ```
 */
export { accessibleName } from './accessible-name.js';
export { activate, type ActivateApproval, type ActivateOptions, type ActivateRefusal, type ActivateResult, type ActivateStep } from './activate.js';
export { checkNavigation, type NavigationCheck, type NavigationCheckOptions } from './check-navigation.js';
export { checkPage, type CheckPageOptions, type PageCheckResult } from './check-page.js';
export { consequenceInName, type ConsequenceKind, type ConsequentialWords } from './consequential-words.js';
export { controlRisk, type ControlRisk } from './control-risk.js';
export {
  fenceEffects,
  outsideFence,
  type EffectFenceOptions,
  type EffectKind,
  type EffectStep,
  type FenceResult,
  type FencedEffect,
  type PageEffect,
} from './effect-fence.js';
export { clickWords, fillWords } from './effect-words.js';
export { elementRole } from './element-role.js';
export { RefRegistry, createRefRegistry, refOf, refRegistryFor, type RefEntry, type RefIdentity } from './element-ref.js';
export { PRIVATE_ATTRIBUTE, isPasswordField, isSecretField, rememberPasswordFields, type ElementState } from './element-state.js';
export { looksSecret, redactSecrets } from '../secret-text.js';
export { estimateTokens } from './estimate-tokens.js';
export { fill, type FillOptions, type FillRefusal, type FillResult, type SecretSource } from './fill.js';
export { IGNORE_ATTRIBUTE, isOffLimits } from './host-ui.js';
export { createLookTools, type LookTool, type LookTools, type LookToolsOptions } from './look-tools.js';
export { createPageTools, type PageTool, type PageToolContext, type PageTools, type PageToolsOptions } from './page-tools.js';
export {
  createTourLocators,
  describeLocator,
  findLocator,
  locatorOf,
  type Locator,
  type LocatorFailure,
  type LocatorMatch,
  type LocatorOptions,
} from './locator.js';
export { DEFAULT_OUTLINE_TOKENS, outlinePage, type OutlinePageOptions } from './page-outline.js';
export { readableText, type ReadableText } from './readable-text.js';
export type { PageElementKind } from './page-elements.js';
export type { PageRoot } from './page-root.js';
export { omittedSummaryLine, renderOutline, renderOutlineLine, type OutlineNode, type PageOutline } from './render-outline.js';
export { resolveTarget, type ResolveFailureReason, type ResolveTargetOptions, type ResolveTargetResult } from './resolve-target.js';
export { contrastRatio } from './colour.js';
export { isSeen, unseenReason, type UnseenReason } from './sighted.js';
export { isElementVisible, type HiddenReason } from './visibility.js';
