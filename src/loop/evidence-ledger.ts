/*
 * The run's record of what happened for each todo while it was the turn's todo (narrations shown,
 * tools that succeeded, answers, actions refused, where the page went), and the checks against it:
 * a todo's own `check`, or the one its intent and the run's actions imply. Page facts (`visible`,
 * `field`) go to the run's page checker (`page.check`: planloop/dom's `checkPage` in the README's
 * wiring; without one they never hold). The
 * loop asks it before a turn (may each todo be completed?), after each action (did the action make
 * the turn's todo's check hold?) and when the model asks to finish.
 */
import type { CompletionVerdict } from '../envelope/apply.js';
import type { TurnAction } from '../envelope/schema.js';
import type { TodoItem } from '../plan-state.js';
import type { TodoCheck } from '../todo-check.js';
import { SECRET_PLACEHOLDER } from '../secret-text.js';
import { matchUrl, missingEvidence } from '../todo-check-text.js';

/**
 * Checks a todo's page evidence (`visible` and `field` checks): planloop/dom's `checkPage`, or the
 * host's own (a page in another frame or process). A throw counts as missing evidence, never as a pass.
 *
 * @example
 * ```ts
 * import { checkPage } from 'planloop/dom';
 * const check: PageChecker = (todoCheck) => checkPage(todoCheck, { exclude: '#guide' });
 * ```
 */
export type PageChecker = (
  check: TodoCheck,
  context: { readonly url: string | undefined; readonly signal: AbortSignal | undefined },
) =>
  | { readonly ok: true }
  | { readonly ok: false; readonly missing: string }
  | Promise<{ readonly ok: true } | { readonly ok: false; readonly missing: string }>;

/** What checking one todo found: it has no check, its check holds, or what is missing. */
export type CheckOutcome = { readonly status: 'none' } | { readonly status: 'ok' } | { readonly status: 'missing'; readonly missing: string };

/** A todo with a check that was not met, and what is missing (`RunResult.unverified`). */
export interface UnverifiedTodo {
  readonly id: string;
  readonly missing: string;
}

/** A check derived from the run rather than written: a tool ran and succeeded for the todo, or an answer came. */
type RunFact = 'acted' | 'page-moved';

/** What the run saw happen for one todo while it was the turn's todo. */
interface TodoFacts {
  narrated: boolean;
  /** Tools that ran and succeeded (a `read` tool's look included). */
  tools: Set<string>;
  /** Tools that are not `read` that ran and succeeded: the todo's page action happened. */
  acted: boolean;
  /** Where the todo's last successful navigation went (a tool's `path` or `url`). */
  navigatedTo: string | undefined;
  /** The field the todo's last successful fill wrote (a tool's `target`), and what (undefined: a secret). */
  filled: { field: string; value: string | undefined } | undefined;
  /** The page when the todo first became the turn's todo. */
  startUrl: string | undefined;
  /** A tool action for it was refused (by the user or the policy), and none ran since. */
  declined: boolean;
  /** Its check was seen holding while it was the turn's todo: evidence that stays (a field filled, then sent). */
  seen: boolean;
}

/** What {@link createEvidenceLedger} needs. */
export interface EvidenceLedgerOptions {
  /** The page side; without it `visible` and `field` checks never hold (missing, never passed). */
  checkPage?: PageChecker | undefined;
  /** Where the page is, for `url` checks. */
  url?: (() => string | undefined) | undefined;
  /** Whether a tool only reads (its action is no evidence that the todo's page action happened). */
  isRead?: ((name: string) => boolean) | undefined;
  /**
   * Todos an earlier run left in progress (a reload, another tab): what that run said and did for
   * them is not known here, so their run facts (`narrated`, `tool`, an action ran) stay on the
   * model's word until this run sees them; their page checks still apply. Default none.
   */
  inherited?: ReadonlySet<string> | undefined;
  signal?: AbortSignal | undefined;
}

/** The run's evidence record (see {@link createEvidenceLedger}). */
export interface EvidenceLedger {
  /** Notes that `id` is the turn's todo, and (the first time) `url`, where the page was when its turn began. */
  start(id: string, url: string | undefined): void;
  /** Notes what one action did for todo `id`: ran and succeeded (`ok`), failed, or was refused. */
  record(id: string, action: TurnAction, outcome: 'ok' | 'failed' | 'refused'): void;
  /** Whether the user or the policy refused the todo's last tool action in this run, and none ran since. */
  declined(id: string): boolean;
  /** The check that applies to `todo`: its own, or the one its intent implies (`undefined`: none). */
  checkOf(todo: TodoItem): TodoCheck | RunFact | undefined;
  /** Checks `todo` against the run and the page now; a check once seen holding stays so. */
  check(todo: TodoItem): Promise<CheckOutcome>;
  /** The verdict on completing each open todo now (`applyAdjust`'s `verdict`). */
  verdicts(todos: readonly TodoItem[]): Promise<Map<string, CompletionVerdict>>;
}

/**
 * The line the model reads about a todo that stayed open: `t3 not done: the page is not at /pricing`.
 *
 * @example
 * ```ts
 * notDoneLine('t3', 'the page is not at /pricing'); // 't3 not done: the page is not at /pricing'
 * ```
 */
export function notDoneLine(id: string, missing: string): string {
  return `${id} not done: ${missing}`;
}

/**
 * Whether a todo the model calls done may be completed: never when the user declined its action in
 * this run (checked or not); on evidence when its check holds; held, with what is missing, when it
 * does not; on the model's word when it has no check.
 *
 * @example
 * ```ts
 * completionVerdict('t3', { status: 'missing', missing: 'the page is not at /pricing' }, false);
 * // { complete: false, line: 't3 not done: the page is not at /pricing' }
 * ```
 */
export function completionVerdict(id: string, outcome: CheckOutcome, declined: boolean): CompletionVerdict {
  if (declined) return { complete: false, line: notDoneLine(id, 'the user declined its action'), declined: true };
  if (outcome.status === 'missing') return { complete: false, line: notDoneLine(id, outcome.missing) };
  return { complete: true, checked: outcome.status === 'ok' };
}

/**
 * The run's evidence record: what happened for each todo, and the checks against it. A todo's own
 * `check` applies; without one, where the intent says what to check: `narrate` (something was said
 * for it), `navigate` (the page is where its navigation went, or moved since it started, after a
 * tool ran for it), `fill` (the field its fill wrote holds the value, or is filled for a secret;
 * a tool ran for it where the page cannot be checked). Other intents without a check, and
 * `{ kind: 'none' }`, stay on the model's word.
 *
 * @example
 * ```ts
 * const ledger = createEvidenceLedger({ url: () => location.pathname });
 * ledger.start('t1', '/');
 * ledger.record('t1', { type: 'narrate', text: 'Here are the plans.' }, 'ok');
 * (await ledger.check(plan.todos.get('t1')!)).status; // 'ok' for a narrate todo
 * ```
 */
export function createEvidenceLedger(options: EvidenceLedgerOptions = {}): EvidenceLedger {
  const facts = new Map<string, TodoFacts>();
  const url = (): string | undefined => options.url?.();
  const of = (id: string): TodoFacts => {
    let found = facts.get(id);
    if (!found) {
      found = {
        narrated: false,
        tools: new Set(),
        acted: false,
        navigatedTo: undefined,
        filled: undefined,
        startUrl: undefined,
        declined: false,
        seen: false,
      };
      facts.set(id, found);
    }
    return found;
  };

  const checkOf = (todo: TodoItem): TodoCheck | RunFact | undefined => {
    if (todo.check) return todo.check.kind === 'none' ? undefined : todo.check;
    const seen = facts.get(todo.id);
    switch (todo.intent) {
      case 'narrate':
        return { kind: 'narrated' };
      case 'navigate':
        if (seen?.navigatedTo?.startsWith('/') && url() !== undefined) return { kind: 'url', pattern: seen.navigatedTo };
        return seen?.navigatedTo !== undefined || url() === undefined ? 'acted' : 'page-moved';
      case 'fill':
        if (!seen?.filled || !options.checkPage) return 'acted';
        return seen.filled.value === undefined
          ? { kind: 'field', field: seen.filled.field }
          : { kind: 'field', field: seen.filled.field, value: seen.filled.value };
      default:
        return undefined;
    }
  };

  const evaluate = async (check: TodoCheck | RunFact, seen: TodoFacts, intent: string): Promise<CheckOutcome> => {
    const missing = (text: string): CheckOutcome => ({ status: 'missing', missing: text });
    if (check === 'acted')
      return seen.acted
        ? { status: 'ok' }
        : missing(`no ${intent === 'fill' ? 'field was filled' : intent === 'navigate' ? 'page was opened' : 'action ran'} for it`);
    const now = url();
    if (check === 'page-moved') return seen.acted && now !== undefined && now !== seen.startUrl ? { status: 'ok' } : missing('no page was opened for it');
    if (check.kind === 'narrated') return seen.narrated ? { status: 'ok' } : missing(missingEvidence(check));
    if (check.kind === 'tool') return seen.tools.has(check.name) ? { status: 'ok' } : missing(missingEvidence(check));
    if (check.kind === 'url' && now !== undefined) return matchUrl(check.pattern, now) ? { status: 'ok' } : missing(missingEvidence(check));
    if (!options.checkPage) return missing(`${missingEvidence(check)} (the run has no page checker: page.check)`);
    try {
      const result = await options.checkPage(check, { url: now, signal: options.signal });
      return result.ok ? { status: 'ok' } : missing(typeof result.missing === 'string' && result.missing ? result.missing : missingEvidence(check));
    } catch {
      // A checker that fails proves nothing: the evidence is missing, never assumed.
      return missing(`${missingEvidence(check)} (the page could not be checked)`);
    }
  };

  const ledger: EvidenceLedger = {
    start(id, at) {
      const seen = of(id);
      if (seen.startUrl === undefined) seen.startUrl = at ?? '';
    },
    record(id, action, outcome) {
      const seen = of(id);
      // Only a narration: a finish's summary ("All done.") is the claim being checked, not evidence.
      if (action.type === 'narrate') seen.narrated ||= outcome === 'ok';
      if (action.type !== 'tool') return;
      if (outcome === 'refused') seen.declined = true;
      if (outcome !== 'ok') return;
      seen.tools.add(action.name);
      // A look is no step of the todo: only an action that changes the page clears a refusal.
      if (options.isRead?.(action.name)) return;
      seen.declined = false;
      seen.acted = true;
      const { path, url: to, target, value } = action.args;
      const place = typeof path === 'string' ? path : typeof to === 'string' ? to : undefined;
      if (place !== undefined) seen.navigatedTo = place.trim().replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';
      if (typeof target === 'string' && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) {
        const text = String(value);
        seen.filled = { field: target, value: text.search(SECRET_PLACEHOLDER) >= 0 ? undefined : text };
      }
    },
    declined: (id) => facts.get(id)?.declined ?? false,
    checkOf,
    async check(todo) {
      const check = checkOf(todo);
      if (check === undefined) return { status: 'none' };
      const seen = of(todo.id);
      if (seen.seen) return { status: 'ok' };
      const outcome = await evaluate(check, seen, todo.intent);
      if (outcome.status === 'ok') seen.seen = true;
      const runFact = typeof check === 'string' || check.kind === 'narrated' || check.kind === 'tool';
      if (outcome.status === 'missing' && runFact && options.inherited?.has(todo.id)) return { status: 'none' };
      return outcome;
    },
    async verdicts(todos) {
      const open = todos.filter((todo) => todo.status !== 'completed');
      const outcomes = await Promise.all(open.map((todo) => (ledger.declined(todo.id) ? ({ status: 'none' } as const) : ledger.check(todo))));
      return new Map(open.map((todo, index) => [todo.id, completionVerdict(todo.id, outcomes[index] ?? { status: 'none' }, ledger.declined(todo.id))]));
    },
  };
  return ledger;
}

/** The plan as the evidence steps use it. */
interface EvidencePlan {
  todos: { list(): TodoItem[]; get(id: string): TodoItem | null };
  adjust(change: { remove: string[] }, options: { verdict: (id: string) => CompletionVerdict }): { completed: string[] };
}

/**
 * After a turn: completes the todos it held whose evidence came later in the same turn (the model
 * named the next todo, then did what the held one needed), and returns the lines for those still
 * held, for the next prompt.
 *
 * @example
 * ```ts
 * declare const ledger: EvidenceLedger;
 * declare const held: Array<{ id: string }>; // a turn's `adjust.held`
 * const lines = await recheckHeld(ledger, plan, held); // ['t1 not done: the page is not at /pricing']
 * ```
 */
export async function recheckHeld(ledger: EvidenceLedger, plan: EvidencePlan, held: ReadonlyArray<{ id: string }> | undefined): Promise<string[]> {
  const todos = (held ?? []).flatMap(({ id }) => {
    const todo = plan.todos.get(id);
    return todo && todo.status !== 'completed' ? [todo] : [];
  });
  if (todos.length === 0) return [];
  const verdicts = await ledger.verdicts(todos);
  const now = todos.filter((todo) => verdicts.get(todo.id)?.complete).map((todo) => todo.id);
  if (now.length > 0) plan.adjust({ remove: now }, { verdict: (id) => verdicts.get(id) ?? { complete: true, checked: false } });
  return todos.flatMap((todo) => {
    const verdict = verdicts.get(todo.id);
    return verdict && !verdict.complete ? [verdict.line] : [];
  });
}

/**
 * When a turn asks to finish: checks every open todo, and returns the open todos with a check and
 * without their evidence (declined todos aside: they stay open and say so), for the finish rules
 * (`RunPosition.unverified`), and `settle(finished)`, which completes every open todo whose check
 * held and, when the finish was taken, the turn's todo (on the model's word when it has no check;
 * never one whose action the user declined), as the turn ends.
 *
 * @example
 * ```ts
 * declare const ledger: EvidenceLedger;
 * const { unverified, settle } = await assessFinish(ledger, plan, 't4'); // unverified: [{ id: 't2', missing: 'nothing was said for it' }]
 * settle(unverified.length === 0);
 * ```
 */
export async function assessFinish(
  ledger: EvidenceLedger,
  plan: EvidencePlan,
  current: string | undefined,
): Promise<{ unverified: UnverifiedTodo[]; settle: (finished: boolean) => void }> {
  const open = plan.todos.list().filter((todo) => todo.status !== 'completed');
  const outcomes = new Map(await Promise.all(open.map(async (todo) => [todo.id, await ledger.check(todo)] as const)));
  const verdict = (id: string): CompletionVerdict => completionVerdict(id, outcomes.get(id) ?? { status: 'none' }, ledger.declined(id));
  const done = open.filter((todo) => (todo.id === current && todo.status === 'in_progress') || outcomes.get(todo.id)?.status === 'ok').map((todo) => todo.id);
  const unverified = open.flatMap((todo) => {
    const outcome = outcomes.get(todo.id);
    return outcome?.status === 'missing' && !ledger.declined(todo.id) ? [{ id: todo.id, missing: outcome.missing }] : [];
  });
  return {
    unverified,
    settle: (finished) => {
      // What held is completed either way (what did not is marked held); a todo without a check only when the finish was taken.
      const still = done.filter((id) => plan.todos.get(id)?.status !== 'completed' && (finished || outcomes.get(id)?.status !== 'none' || ledger.declined(id)));
      if (still.length > 0) plan.adjust({ remove: still }, { verdict });
    },
  };
}
