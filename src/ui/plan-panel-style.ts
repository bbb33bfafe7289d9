/**
 * The panel's shadow stylesheet. Theme it from outside with the custom properties below (they
 * inherit through the shadow boundary) or restyle parts with `::part(item)` and friends. The
 * defaults meet WCAG 2.1 AA on the default background: every text at 4.5:1 or more (muted
 * #5b6476 5.9:1, accent #2f5bd3 5.9:1 and 5.3:1 on the current step's #eef3ff, done #1a7a43
 * 5.4:1, held #8a3b00 and declined #b3261e 5.8:1 or more), focus rings and control boundaries at 3:1 or more (`--plan-panel-focus` #2f5bd3,
 * `--plan-panel-control-border` #7c8598 3.7:1). A host that themes them keeps those ratios.
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
/* The panel's own parts hide with the hidden attribute, whatever display their rules give them. */
[hidden] { display: none !important; }
h2 { font-size: 1em; margin: 0 0 4px; }
.summary { margin: 0 0 6px; color: var(--plan-panel-fg, #1d2330); font-weight: 500; }
/* Model text can be one long word (a URL, a run of characters): wrap it inside the panel. */
.summary, .text { overflow-wrap: anywhere; min-width: 0; }
.summary:empty { display: none; }
.meta { margin: 0 0 8px; font-size: 0.86em; color: var(--plan-panel-muted, #5b6476); }
ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px; position: relative; }
li {
  display: grid;
  grid-template-columns: 1.4em minmax(0, 1fr) auto;
  align-items: start;
  gap: 6px;
  padding: 5px 6px;
  border-radius: 6px;
  outline: none;
}
li:focus-visible { box-shadow: 0 0 0 2px var(--plan-panel-focus, #2f5bd3); }
li[aria-current] { background: var(--plan-panel-current-bg, #eef3ff); }
.mark { text-align: center; font-weight: 700; color: var(--plan-panel-muted, #5b6476); }
li[data-status='in_progress'] .mark { color: var(--plan-panel-accent, #2f5bd3); }
/* data-evidence, what a run found: ✓ on the model's word is light; held and declined are not struck through. */
li[data-evidence='checked'] :is(.mark, .status) { color: var(--plan-panel-done, #1a7a43); }
li[data-evidence='unchecked'] .mark { font-weight: 400; }
li[data-evidence$='checked'] .text { color: var(--plan-panel-muted, #5b6476); text-decoration: line-through; }
.status { grid-column: 3; grid-row: 1; font-size: 0.8em; color: var(--plan-panel-muted, #5b6476); white-space: nowrap; }
li[data-status='in_progress'] .status { color: var(--plan-panel-accent, #2f5bd3); font-weight: 600; }
li[data-evidence='held'] :is(.mark, .status) { color: var(--plan-panel-changed, #8a3b00); font-weight: 600; }
li[data-evidence='held'] .status { grid-column: 2 / -1; grid-row: auto; white-space: normal; }
li[data-evidence='declined'] :is(.mark, .status) { color: var(--plan-panel-danger, #b3261e); }
.empty { margin: 0; color: var(--plan-panel-muted, #5b6476); }
button {
  font: inherit;
  font-weight: 600;
  border-radius: 6px;
  border: 1px solid var(--plan-panel-accent, #2f5bd3);
  background: transparent;
  color: var(--plan-panel-accent, #2f5bd3);
  padding: 4px 10px;
  cursor: pointer;
}
button:disabled { opacity: 0.45; cursor: not-allowed; }
button:focus-visible, input:focus-visible { outline: 2px solid var(--plan-panel-focus, #2f5bd3); outline-offset: 1px; }
/* Review: every pending step says it can be changed; the selected one shows its buttons. */
:host([data-reviewing]) li[data-status='pending'] { cursor: pointer; }
:host([data-reviewing]) li[data-status='pending'] .status { display: none; }
:host([data-reviewing]) li[data-selected] { background: var(--plan-panel-current-bg, #eef3ff); }
.controls { display: none; grid-column: 2 / -1; gap: 6px; justify-content: flex-end; }
:host([data-reviewing]) li[data-status='pending'][data-selected] .controls { display: flex; }
.controls button { min-width: 2.2em; padding: 2px 6px; }
.text input { font: inherit; width: 100%; box-sizing: border-box; padding: 2px 6px; border: 1px solid var(--plan-panel-control-border, #7c8598); border-radius: 4px; color: inherit; background: var(--plan-panel-bg, #ffffff); }
/* A step the model rewrote after the plan was announced: said in words, not only marked. */
.changed {
  grid-column: 2 / -1; justify-self: start; font-size: 0.8em; font-weight: 600; padding: 0 6px; border-radius: 4px;
  color: var(--plan-panel-changed, #8a3b00); background: var(--plan-panel-changed-bg, #fff1e0);
}
/* The status line takes the focus when the control the user was on went away. */
.meta:focus-visible { outline: 2px solid var(--plan-panel-focus, #2f5bd3); outline-offset: 2px; border-radius: 2px; }
/* A pending approval (requestApproval): what will happen, then Allow / Deny. */
.approval {
  margin: 0 0 10px; padding: 8px 10px; border-radius: 8px;
  border: 2px solid var(--plan-panel-accent, #2f5bd3);
  background: var(--plan-panel-bg, #ffffff);
}
.approval[data-risk='irreversible'] { border-color: var(--plan-panel-danger, #b3261e); }
.approval:focus { outline: none; }
.approval:focus-visible { box-shadow: 0 0 0 3px var(--plan-panel-focus, #2f5bd3); }
.approval h3 { font-size: 1em; margin: 0 0 4px; }
.approval p { margin: 0 0 4px; overflow-wrap: anywhere; }
.approval-risk { font-size: 0.86em; font-weight: 600; color: var(--plan-panel-muted, #5b6476); }
.approval[data-risk='irreversible'] .approval-risk { color: var(--plan-panel-danger, #b3261e); }
.approval-warning { font-weight: 600; color: var(--plan-panel-danger, #b3261e); }
.approval-warning[hidden] { display: none; }
.approval dl { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 2px 8px; margin: 0 0 8px; font-size: 0.86em; }
.approval dt { color: var(--plan-panel-muted, #5b6476); }
.approval dd { margin: 0; overflow-wrap: anywhere; }
.approval-actions { display: flex; gap: 8px; flex-wrap: wrap; }
.approval .allow { background: var(--plan-panel-accent, #2f5bd3); color: var(--plan-panel-accent-fg, #ffffff); }
.hint { margin: 0 0 6px; font-size: 0.86em; color: var(--plan-panel-muted, #5b6476); }
.hint .touch { display: none; }
.undo { flex-basis: 100%; margin: 0; font-size: 0.86em; color: var(--plan-panel-muted, #5b6476); overflow-wrap: anywhere; }
.undo button { padding: 1px 8px; margin-left: 4px; }
.actions {
  display: flex; flex-wrap: wrap; gap: 8px; margin-top: 10px; padding-top: 8px;
  /* In a panel taller than its scrolling container, the buttons stay in view; the shadow below
     them hides steps scrolling past in the container's padding. */
  position: sticky; bottom: 0;
  background: var(--plan-panel-bg, #ffffff);
  box-shadow: 0 28px 0 0 var(--plan-panel-bg, #ffffff), 0 -1px 0 0 var(--plan-panel-border, #d9dee8);
}
.approve { background: var(--plan-panel-accent, #2f5bd3); color: var(--plan-panel-accent-fg, #ffffff); }
/* Touch screens: no key names, and targets a finger can hit. */
@media (pointer: coarse) {
  .hint .keys { display: none; }
  .hint .touch { display: inline; }
  .controls button { min-width: 44px; min-height: 40px; }
  .actions button, .approval button { min-height: 44px; }
}
.sr-only {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
`;
