/**
 * The panel's shadow stylesheet. Theme it from outside with the custom properties below (they
 * inherit through the shadow boundary) or restyle parts with `::part(item)` and friends.
 *
 * @example
 * ```ts
 * const sheet = new CSSStyleSheet(); sheet.replaceSync(PLAN_PANEL_CSS); // reuse the panel's look elsewhere
 * ```
 */
export const PLAN_PANEL_CSS = `
:host {
  display: block;
  font: var(--plan-panel-font, 14px/1.45 system-ui, sans-serif);
  color: var(--plan-panel-fg, #1d2330);
  background: var(--plan-panel-bg, #ffffff);
  border: 1px solid var(--plan-panel-border, #d9dee8);
  border-radius: var(--plan-panel-radius, 10px);
  padding: var(--plan-panel-padding, 12px 14px);
  box-sizing: border-box;
}
:host([hidden]) { display: none; }
h2 { font-size: 1em; margin: 0 0 4px; }
.summary { margin: 0 0 6px; color: var(--plan-panel-fg, #1d2330); font-weight: 500; }
/* Model text can be one long word (a URL, a run of characters): wrap it inside the panel. */
.summary, .text { overflow-wrap: anywhere; min-width: 0; }
.summary:empty { display: none; }
.meta { margin: 0 0 8px; font-size: 0.86em; color: var(--plan-panel-muted, #5b6476); }
ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px; }
li {
  display: grid;
  grid-template-columns: 1.4em minmax(0, 1fr) auto;
  align-items: start;
  gap: 6px;
  padding: 5px 6px;
  border-radius: 6px;
  outline: none;
}
li:focus-visible { box-shadow: 0 0 0 2px var(--plan-panel-focus, #3b6cf6); }
li[aria-current] { background: var(--plan-panel-current-bg, #eef3ff); }
.mark { text-align: center; font-weight: 700; color: var(--plan-panel-muted, #5b6476); }
li[data-status='in_progress'] .mark { color: var(--plan-panel-accent, #3b6cf6); }
li[data-status='completed'] .mark { color: var(--plan-panel-done, #1f8a4c); }
li[data-status='completed'] .text { color: var(--plan-panel-muted, #5b6476); text-decoration: line-through; }
.status { font-size: 0.8em; color: var(--plan-panel-muted, #5b6476); white-space: nowrap; }
li[data-status='in_progress'] .status { color: var(--plan-panel-accent, #3b6cf6); font-weight: 600; }
li[data-status='completed'] .status { color: var(--plan-panel-done, #1f8a4c); }
.empty { margin: 0; color: var(--plan-panel-muted, #5b6476); }
.sr-only {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
`;
