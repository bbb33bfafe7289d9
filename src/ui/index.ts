/**
 * `planloop/ui`: the `<plan-panel>` custom element. Importing this module registers nothing;
 * call {@link definePlanPanel} to register the tag.
 */
export { PLAN_PANEL_CSS } from './plan-panel-style.js';
export { PlanPanelElement, definePlanPanel, type PlanReviewOptions } from './plan-panel.js';

declare global {
  interface HTMLElementTagNameMap {
    'plan-panel': import('./plan-panel.js').PlanPanelElement;
  }
}
