import type { ConsequenceKind } from '../dom/consequential-words.js';
import { CONSEQUENCE_PHRASES } from '../dom/control-risk.js';
import type { TodoStatus } from '../plan-state.js';

/** How much an action risks, as the panel's approval names it (structurally the loop's `ActionRisk`). */
export type PanelRisk = 'read' | 'write' | 'irreversible';

/**
 * Every word `<plan-panel>` shows or announces, so that a host can give it another language: set
 * `panel.strings` to a whole object, or spread {@link PLAN_PANEL_STRINGS} and change a few. A key
 * the host's object lacks (one written for an earlier version) takes the English default.
 * Functions take what the text is about (counts, a step's text, a step's number). Step texts and
 * model text reach them as plain strings and are shown as text, never as HTML.
 */
export interface PlanPanelStrings {
  /** The heading above the list (the `heading` attribute wins when set). */
  heading: string;
  /** The review's approve button (the `approve-label` attribute wins when set). */
  approve: string;
  /** The review's decline button (the `decline-label` attribute wins when set). */
  decline: string;
  /** Shown when the plan has no todos. */
  empty: string;
  /** Each status, written out beside the step. */
  status: Record<TodoStatus, string>;
  /**
   * What a run found about a step, written out in place of its status: `checked` (done, and the
   * SDK checked it), `unchecked` (done on the model's word), `held` (the model called it done, its
   * check did not hold: still open), `declined` (the user declined its action: not done).
   */
  evidence: Record<'checked' | 'unchecked' | 'held' | 'declined', string>;
  /** The review hint for a keyboard (pointer: fine). */
  hintKeys: string;
  /** The review hint for a touch screen (pointer: coarse). */
  hintTouch: string;
  editStep: (step: number) => string;
  moveUp: (step: number) => string;
  moveDown: (step: number) => string;
  removeStep: (step: number) => string;
  /** The name of the text field that edits a step. */
  stepText: (step: number) => string;
  undo: string;
  /** The line beside Undo. */
  removedLine: (text: string) => string;
  /** Beside a todo the model rewrote after the plan was announced. */
  changedByModel: string;
  /** The meta line's parts. */
  progress: (done: number, total: number) => string;
  turn: (turn: number, maxTurns: number) => string;
  planning: string;
  finished: string;
  notStarted: string;
  stopped: string;
  stoppedByError: string;
  /** The meta line when a run ended with steps the model called done unconfirmed (reason `unverified`). */
  unverified: string;
  /** Quotes a step's or the model's text, the language's way. */
  quote: (text: string) => string;
  /** What the live region says. */
  say: {
    review: (steps: number, approveLabel: string) => string;
    approved: string;
    declined: string;
    newPlan: (steps: number) => string;
    emptyPlan: string;
    restored: (left: number, total: number) => string;
    finished: (summary: string | undefined) => string;
    notStarted: string;
    stoppedBeforePlan: string;
    noNewPlan: (message: string) => string;
    stopped: string;
    stoppedByError: (message: string) => string;
    now: (text: string) => string;
    done: (text: string) => string;
    /** A step completed on the model's word (no check). */
    doneUnchecked: (text: string) => string;
    /** A step the model called done whose check did not hold. */
    held: (text: string) => string;
    /** A step whose action the user declined. */
    stepDeclined: (text: string) => string;
    /** A run ended `unverified`: `steps` are the texts of the steps left unconfirmed. */
    unverified: (steps: readonly string[]) => string;
    moved: (text: string, step: number, steps: number) => string;
    emptyText: string;
    changed: (text: string) => string;
    notChanged: (message: string) => string;
    removed: (text: string) => string;
    broughtBack: (text: string) => string;
    allowed: string;
    denied: string;
  };
  /** The approval box (`requestApproval`). */
  approval: {
    /** Its heading, for an action about to run and for a step the model rewrote. */
    actionHeading: string;
    planChangeHeading: string;
    risk: Record<PanelRisk, string>;
    page: string;
    step: string;
    purpose: string;
    tool: string;
    allow: string;
    deny: string;
    /** The reason a denial gives the model. */
    deniedReason: string;
    /**
     * Said when the action does something its todo did not announce (a form sent while the step
     * is "Open the pricing page"): `step` is the todo's text, already quoted; `does` one of `consequence`.
     */
    notAnnounced: (step: string, does: string) => string;
    /** What an action amounts to, for `notAnnounced`, by the request's `consequence`. */
    consequence: Readonly<Record<ConsequenceKind, string>>;
  };
}

/**
 * The panel's English words: the default of `panel.strings`.
 *
 * @example
 * ```ts
 * panel.strings = { ...PLAN_PANEL_STRINGS, heading: 'Tour plan', approve: 'Start the tour' };
 * ```
 */
export const PLAN_PANEL_STRINGS: PlanPanelStrings = {
  heading: 'Plan',
  approve: 'Approve',
  decline: 'Decline',
  empty: 'No plan yet.',
  status: { pending: 'Pending', in_progress: 'In progress', completed: 'Done' },
  evidence: { checked: 'Done, checked', unchecked: 'Done (not checked)', held: 'Not done yet: no sign it happened', declined: 'Declined' },
  hintKeys: 'Change the plan first if you like: ↑ and ↓ pick a step, Tab reaches its buttons; Enter edits it, Delete removes it, Alt+↑ and Alt+↓ move it.',
  hintTouch: 'Change the plan first if you like: tap a step to edit, move or remove it.',
  editStep: (step) => `Edit step ${step}`,
  moveUp: (step) => `Move step ${step} up`,
  moveDown: (step) => `Move step ${step} down`,
  removeStep: (step) => `Remove step ${step}`,
  stepText: (step) => `Text of step ${step}`,
  undo: 'Undo',
  removedLine: (text) => `Removed “${text}”. `,
  changedByModel: 'changed by the model',
  progress: (done, total) => `${done} of ${total} done`,
  turn: (turn, maxTurns) => `Turn ${turn} of ${maxTurns}`,
  planning: 'Planning…',
  finished: 'Finished',
  notStarted: 'Not started',
  stopped: 'Stopped',
  stoppedByError: 'Stopped by an error',
  unverified: 'Ended with steps not done',
  quote: (text) => `“${text}”`,
  say: {
    review: (steps, approveLabel) => `Review the plan: ${steps} ${steps === 1 ? 'step' : 'steps'}. Change them if you like, then choose “${approveLabel}”.`,
    approved: 'Plan approved.',
    declined: 'Plan declined.',
    newPlan: (steps) => `New plan with ${steps} ${steps === 1 ? 'step' : 'steps'}.`,
    emptyPlan: 'The plan is empty.',
    restored: (left, total) => `Restored a plan: ${left} of ${total} steps left.`,
    finished: (summary) => `Finished.${summary ? ` ${summary}` : ''}`,
    notStarted: 'The plan was not started.',
    stoppedBeforePlan: 'Stopped before a new plan was made.',
    noNewPlan: (message) => `No new plan: ${message}`,
    stopped: 'Stopped.',
    stoppedByError: (message) => `Stopped: ${message}`,
    now: (text) => `Now: ${text}.`,
    done: (text) => `Done: ${text}.`,
    doneUnchecked: (text) => `Done (not checked): ${text}.`,
    held: (text) => `Not done yet: ${text}. No sign it happened.`,
    stepDeclined: (text) => `Declined: ${text}.`,
    unverified: (steps) => `Ended with steps not done${steps.length ? `: ${steps.map((step) => `“${step}”`).join(', ')}` : ''}.`,
    moved: (text, step, steps) => `Moved “${text}” to step ${step} of ${steps}.`,
    emptyText: 'A step needs some text: the old text was kept.',
    changed: (text) => `Step changed to “${text}”.`,
    notChanged: (message) => `The step was not changed: ${message}`,
    removed: (text) => `Removed “${text}”. Undo brings it back (Ctrl+Z).`,
    broughtBack: (text) => `Brought back “${text}”.`,
    allowed: 'Allowed.',
    denied: 'Denied.',
  },
  approval: {
    actionHeading: 'Allow this action?',
    planChangeHeading: 'The model changed a step. Keep the change?',
    risk: { read: 'Only reads the page', write: 'Changes the page', irreversible: 'Cannot be undone' },
    page: 'Page',
    step: 'For step',
    purpose: 'The model says',
    tool: 'Tool',
    allow: 'Allow',
    deny: 'Deny',
    deniedReason: 'The user said no.',
    notAnnounced: (step, does) => `Not what the step said: ${step} does not say it ${does}.`,
    consequence: CONSEQUENCE_PHRASES,
  },
};
