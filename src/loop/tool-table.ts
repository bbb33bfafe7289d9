import type { ValidationIssue } from '../errors.js';
import type { Plan } from '../plan.js';
import { ACTION_RISKS, type ActionRisk, type ConfirmResult, type ConfirmStep } from './action-policy.js';
import type { TurnToolSpec } from './turn-prompt.js';

/** What a tool handler (and `user.narrate`, `user.ask`) receives besides its arguments. */
export interface LoopToolContext {
  readonly runId: string;
  readonly turn: number;
  readonly plan: Plan;
  /** The todo this turn works on (`turn_planning.todo_id`). */
  readonly todoId: string | undefined;
  /** Aborts when the run is aborted: pass it on to `fetch` and the like. */
  readonly signal: AbortSignal | undefined;
  /**
   * Asks, through the run's action policy, before a step riskier than the tool declared (a click
   * that would submit a form, leave the site, open a tab, download): the user's `approval.ask` when
   * the approval level asks for it, a refusal for `'irreversible'` without a hook. A step no
   * riskier than the tool's declared risk is approved at once. On a refusal do not take the step,
   * and return the reason: the model reads it (the action is reported as `refused`).
   */
  confirm(step: ConfirmStep): Promise<ConfirmResult>;
}

/** A host tool: its result (any JSON-able value) or its error becomes an observation. */
export type LoopToolHandler = (args: Record<string, unknown>, context: LoopToolContext) => unknown;

/**
 * A tool: a handler, or a handler with a one-line description the model sees (`open a page {path}`),
 * its `risk` (default `'write'`) and `describe(args)`, the words the user is shown when asked to
 * approve it (default: the description with its `{placeholders}` filled in).
 */
export type LoopTool =
  | LoopToolHandler
  | {
      run: LoopToolHandler;
      description?: string;
      /** How consequential the tool's action is: `'read'`, `'write'` or `'irreversible'`. Default `'write'`. */
      risk?: ActionRisk;
      /** What the action will do, for the user approving it ("Submit the form 'Start trial'"). */
      describe?: (args: Record<string, unknown>) => string;
      /**
       * The arguments that name an element on the page (an outline ref): a recorded tour stores
       * them as locators, and a replay finds the element again before the tool runs. Default `['target']`.
       */
      targets?: readonly string[];
    };

/** One tool of a run, read once: its handler, its risk (undeclared: `'write'`) and its words. */
export interface ToolEntry {
  readonly name: string;
  readonly run: LoopToolHandler;
  readonly risk: ActionRisk;
  /** The one line the model sees (`open a page {path}`). */
  readonly description: string | undefined;
  /** The words the user sees when asked to approve it. */
  readonly describe: ((args: Record<string, unknown>) => string) | undefined;
  /** The arguments that name an element on the page (a recorded tour stores them as locators). Default `['target']`. */
  readonly targets: readonly string[];
}

/** A run's tools, each read once (see {@link readToolTable}). */
export interface ToolTable {
  /** The tool of that name; own names only (a model naming `constructor` finds nothing). */
  get(name: string): ToolEntry | undefined;
  /** The tools' names, in the host's order. */
  readonly names: readonly string[];
  /** The tools as the turn prompt names them. */
  readonly specs: readonly TurnToolSpec[];
}

const TABLES = new WeakSet<object>();

/** The tool arguments that name an element when a tool does not say (`targets`). */
const DEFAULT_TARGETS: readonly string[] = ['target'];

/**
 * The host's tools as a table, each tool's risk read once; a table given again is returned as it
 * is. Collects every problem (a tool that is no function and has no `run`, a `risk` that is none
 * of `ACTION_RISKS`, a `describe` that is no function) into `issues` under `tools.<name>…`.
 *
 * @example
 * ```ts
 * const issues: Array<{ path: string; message: string }> = [];
 * const table = readToolTable({ look: { risk: 'read', run: () => 'ok' }, click: () => 'clicked' }, issues);
 * table.get('click')?.risk; // 'write'
 * ```
 */
export function readToolTable(tools: Record<string, LoopTool> | ToolTable | undefined, issues: ValidationIssue[]): ToolTable {
  if (tools !== undefined && TABLES.has(tools)) return tools as ToolTable;
  const entries = new Map<string, ToolEntry>();
  if (tools !== undefined && (typeof tools !== 'object' || tools === null || Array.isArray(tools))) {
    issues.push({ path: 'tools', message: 'must be an object of tools by name' });
  } else {
    for (const [name, tool] of Object.entries((tools ?? {}) as Record<string, unknown>)) {
      const entry = readTool(name, tool, issues);
      if (entry) entries.set(name, entry);
    }
  }
  const names = [...entries.keys()];
  const table: ToolTable = {
    get: (name) => entries.get(name),
    names,
    specs: [...entries.values()].map((entry) => (entry.description ? { name: entry.name, description: entry.description } : { name: entry.name })),
  };
  TABLES.add(table);
  return table;
}

function readTool(name: string, tool: unknown, issues: ValidationIssue[]): ToolEntry | undefined {
  if (typeof tool === 'function')
    return { name, run: tool as LoopToolHandler, risk: 'write', description: undefined, describe: undefined, targets: DEFAULT_TARGETS };
  if (typeof tool !== 'object' || tool === null) {
    issues.push({ path: `tools.${name}`, message: 'must be a function or an object with a run function' });
    return undefined;
  }
  const { run, risk, description, describe, targets } = tool as { run?: unknown; risk?: unknown; description?: unknown; describe?: unknown; targets?: unknown };
  const before = issues.length;
  if (typeof run !== 'function') issues.push({ path: `tools.${name}.run`, message: 'must be a function' });
  if (risk !== undefined && !ACTION_RISKS.includes(risk as ActionRisk)) {
    issues.push({ path: `tools.${name}.risk`, message: `must be one of ${ACTION_RISKS.join(', ')}, not ${JSON.stringify(risk)}` });
  }
  if (description !== undefined && typeof description !== 'string') issues.push({ path: `tools.${name}.description`, message: 'must be a string' });
  if (describe !== undefined && typeof describe !== 'function') issues.push({ path: `tools.${name}.describe`, message: 'must be a function' });
  if (targets !== undefined && !(Array.isArray(targets) && targets.every((target) => typeof target === 'string'))) {
    issues.push({ path: `tools.${name}.targets`, message: 'must be a list of argument names' });
  }
  if (issues.length > before) return undefined;
  return {
    name,
    run: run as LoopToolHandler,
    risk: (risk as ActionRisk | undefined) ?? 'write',
    description: description as string | undefined,
    describe: describe as ToolEntry['describe'],
    targets: targets === undefined ? DEFAULT_TARGETS : [...(targets as string[])],
  };
}
