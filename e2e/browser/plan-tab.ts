// Loaded into a page by e2e/storage-*.spec.ts (through Vite, from /@fs/…): one tab's Plan on real
// localStorage or IndexedDB, wired as a host would wire it (a <plan-panel>, the turn loop with a
// scripted model), with a log of what the tab was told: which changes were reported saved (a
// `save-status-change` to `saved`), every sync conflict and every storage error. The specs compare
// those logs with the plan that every tab, and storage, ends up with.
import {
  createLLMRouter,
  createIndexedDbAdapter,
  createLocalStorageAdapter,
  Plan,
  runWebAgent,
  type PlanStorageAdapter,
  type TodoItem,
} from '../../src/index.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import { definePlanPanel } from '../../src/ui/index.js';

export interface PlanTabOptions {
  key: string;
  adapter: 'local' | 'idb';
  openTimeoutMs?: number;
  /** Show a <plan-panel> for the plan. */
  panel?: boolean;
  /** Milliseconds per streamed chunk of the scripted turn model. */
  modelDelayMs?: number;
}

/** Todos whose description starts with this are the run's: the scripted model works through them. */
export const RUN_PREFIX = 'run ';

/** One scripted turn: complete the run todo in progress, start the next, or finish when none is left. */
function nextTurn(plan: Plan): object {
  const todos = plan.todos.list().filter((todo) => todo.description.startsWith(RUN_PREFIX));
  const current = todos.find((todo) => todo.status === 'in_progress');
  const next = todos.find((todo) => todo.status === 'pending');
  const remove = current ? [current.id] : [];
  if (!next) {
    return {
      turn_planning: { todo_id: current?.id ?? todos.at(-1)?.id ?? 't1', does: 'Wrap up', is_last_turn: true },
      todo_adjust: { remove },
      actions: [{ type: 'task_finish', summary: 'Done.' }],
    };
  }
  return {
    turn_planning: { todo_id: next.id, does: `Work on ${next.id}`, is_last_turn: false },
    todo_adjust: { remove },
    actions: [{ type: 'narrate', text: `Now ${next.description}` }],
  };
}

/** What a tab was told (see the top of this file). */
export interface TabLog {
  /** The todo descriptions each time the tab reported everything saved. */
  saved: string[][];
  /** Run todos completed by a turn this tab committed (turn-end), then reported saved. */
  savedCompletions: Set<string>;
  committedCompletions: Set<string>;
  conflicts: unknown[];
  errors: Array<{ reason: string | undefined; operation: string; message: string }>;
  hydrations: number;
  runs: string[];
}

export async function openPlanTab(options: PlanTabOptions) {
  const storage: PlanStorageAdapter =
    options.adapter === 'idb'
      ? createIndexedDbAdapter({ key: options.key, ...(options.openTimeoutMs ? { openTimeoutMs: options.openTimeoutMs } : {}) })
      : createLocalStorageAdapter({ key: options.key });
  let plan!: Plan;
  const model = createScriptedProvider(() => nextTurn(plan), { chunkSize: 12, delayMs: options.modelDelayMs ?? 2 });
  plan = new Plan({ storage, llm: createLLMRouter({ default: model }) });
  // The log survives a reload of the tab (sessionStorage), so that what it reported before counts.
  const LOG_KEY = `plan-tab-log:${options.key}`;
  const kept = JSON.parse(sessionStorage.getItem(LOG_KEY) ?? 'null') as {
    saved: string[][];
    savedCompletions: string[];
    conflicts: unknown[];
    errors: TabLog['errors'];
  } | null;
  const log: TabLog = {
    saved: kept?.saved ?? [],
    savedCompletions: new Set(kept?.savedCompletions ?? []),
    committedCompletions: new Set(),
    conflicts: kept?.conflicts ?? [],
    errors: kept?.errors ?? [],
    hydrations: 0,
    runs: [],
  };
  const keep = (): void =>
    sessionStorage.setItem(
      LOG_KEY,
      JSON.stringify({ saved: log.saved, savedCompletions: [...log.savedCompletions], conflicts: log.conflicts, errors: log.errors }),
    );
  plan.on('save-status-change', ({ status }) => {
    if (status.state !== 'saved') return;
    log.saved.push(plan.todos.list().map((todo) => todo.description));
    for (const description of log.committedCompletions) log.savedCompletions.add(description);
    keep();
  });
  plan.on('turn-end', () => {
    for (const todo of plan.todos.list())
      if (todo.status === 'completed' && todo.description.startsWith(RUN_PREFIX)) log.committedCompletions.add(todo.description);
  });
  plan.on('sync-conflict', ({ conflict }) => {
    log.conflicts.push(structuredClone(conflict));
    keep();
  });
  plan.on('storage-error', ({ error }) => {
    log.errors.push({ reason: error.reason, operation: error.operation, message: error.message });
    keep();
  });
  plan.on('plan-hydrate', () => (log.hydrations += 1));
  // Every commit, briefly, for explaining a failure: origin, and the todos by id.
  const trail: string[] = [];
  (window as unknown as { trail: string[] }).trail = trail;
  plan.on('state-change', ({ state, previous, origin }) => {
    const changed = state.todos.filter((todo) => !previous.todos.includes(todo)).map((todo) => `${todo.id}=${todo.description}/${todo.status[0]}`);
    const gone = previous.todos.filter((todo) => !state.todos.some((other) => other.id === todo.id)).map((todo) => `-${todo.id}`);
    trail.push(`${origin} ${[...changed, ...gone].join(' ')}`);
  });
  if (options.panel) {
    definePlanPanel();
    const panel = document.createElement('plan-panel');
    panel.id = 'panel';
    panel.plan = plan;
    document.body.append(panel);
  }
  plan.attachTo({});
  await plan.ready;

  return {
    plan,
    log,
    todos: (): TodoItem[] => plan.todos.list(),
    create(description: string) {
      // The tabs' own todos are storage traffic, not steps a run works on: on the model's word.
      return plan.todos.create({ intent: 'narrate', description, check: { kind: 'none' } }).id;
    },
    /** Runs the turn loop over the run todos; resolves with how it ended (never rejects). */
    async run(options: { takeOver?: boolean } = {}): Promise<string> {
      try {
        const result = await runWebAgent({
          plan,
          task: 'Tour',
          start: { resume: true, ...(options.takeOver === undefined ? {} : { takeOver: options.takeOver }) },
          user: { narrate: () => undefined },
          model: { timeoutMs: 20_000 },
        });
        log.runs.push(`finished ${result.reason}`);
        return `finished ${result.reason}`;
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'error';
        log.runs.push(`${code}: ${(error as Error).message}`);
        return code;
      }
    },
    /** The log in plain JSON (sets as arrays). */
    report() {
      return { saved: log.saved, savedCompletions: [...log.savedCompletions], conflicts: log.conflicts, errors: log.errors, runs: log.runs };
    },
    /** Creates `count` todos `<name>-<i>` with random pauses, now and then editing one made before (`… edited`). */
    async work(name: string, count: number, maxPauseMs = 30) {
      for (let i = 0; i < count; i++) {
        plan.todos.create({ intent: 'narrate', description: `${name}-${i}`, check: { kind: 'none' } });
        await new Promise((resolve) => setTimeout(resolve, Math.random() * maxPauseMs));
        if (i > 0 && Math.random() < 0.3) {
          const own = plan.todos.list().find((todo) => todo.description === `${name}-${Math.floor(Math.random() * i)}`);
          if (own) plan.todos.edit(own.id, { description: `${own.description} edited` });
        }
      }
    },
    /** Resolves once nothing is left to save (or saving is held). */
    async settled(): Promise<string> {
      for (let i = 0; i < 400 && !['saved', 'held'].includes(plan.saveStatus.state); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      return plan.saveStatus.state;
    },
  };
}

export type PlanTab = Awaited<ReturnType<typeof openPlanTab>>;

declare global {
  interface Window {
    tab: PlanTab;
  }
}
