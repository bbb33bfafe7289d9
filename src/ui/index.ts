/**
 * `planloop/ui`: the `<plan-panel>` custom element, and the reactive controller it reads a plan's
 * runs with (`RunController`, usable by a lit element as it is). Importing this module registers
 * nothing; call {@link definePlanPanel} to register the tag.
 */
export { PLAN_PANEL_CSS } from './plan-panel-style.js';
export { PlanPanelElement, definePlanPanel, type PlanPanelAnnounce, type PlanReviewOptions } from './plan-panel.js';
export { PLAN_PANEL_STRINGS, type PanelRisk, type PlanPanelStrings } from './plan-panel-strings.js';
export { RunController, type RunControllerHost } from './run-controller.js';
export type { PanelApprovalAnswer, PanelApprovalOptions, PanelApprovalRequest } from './approval-box.js';

declare global {
  interface HTMLElementTagNameMap {
    'plan-panel': import('./plan-panel.js').PlanPanelElement;
  }
}
