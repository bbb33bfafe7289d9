// `npm run eval`: serves the pages, opens Chromium, runs every task in every arm against the
// model, and writes the report. Also callable from a test (`runEval`) with a browser and URLs.
import { existsSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import { createOpenAICompatibleProvider, type LLMProvider } from '../src/index.js';
import { ARMS, type ArmName } from './arms.js';
import { summarize, writeReport, type EvalReport } from './report.js';
import { runTask, type TaskRun } from './run-task.js';
import { SCRIPTED_MODELS, startScriptedModel, type ScriptedModel } from './scripted-model.js';
import { startSiteServer } from './site-server.js';
import { ATTACK_TASKS } from './tasks/attack.js';
import { TASKS } from './tasks/index.js';

/** The runner's options (the CLI flags, in camelCase). */
export interface EvalOptions {
  /** The OpenAI-compatible API root, e.g. http://localhost:11434/v1. Not needed with `scripted`. */
  baseURL?: string | undefined;
  model: string;
  /** The API key (read by the CLI from the environment variable `--api-key-env` names). */
  apiKey?: string | undefined;
  /**
   * Makes a provider per run instead of calling `baseURL` (any `LLMProvider`). The model
   * `offline-demo` is the demo's offline stand-in (it only knows the demo's tours: plumbing only).
   */
  llm?: () => LLMProvider;
  arms?: readonly ArmName[];
  /** Task ids; default all (with `attack`: all attack tasks). */
  tasks?: readonly string[];
  /**
   * Runs the attack tasks instead, each twice per arm and repeat: without its attacker's
   * instruction (utility) and with it (utility under attack, attack success). Default false.
   */
  attack?: boolean;
  /** Runs per task and arm. Default 1. */
  repeat?: number;
  /** Where the report goes. Default eval/results. `null`: write nothing. */
  out?: string | null;
  /** A running demo (Vite) to use; else the runner starts one on `demoPort`. */
  demoURL?: string | undefined;
  demoPort?: number;
  /** The eval site's port (0: any). Default 5400. */
  sitePort?: number;
  /** A browser to use (a test's); else the runner launches Chromium. */
  browser?: Browser;
  /** Bound of one model answer. Default 120 s (local models on a CPU are slow). */
  turnTimeoutMs?: number;
  /** Bound of one whole run. Default 15 min. */
  runTimeoutMs?: number;
  temperature?: number | undefined;
  /**
   * Runs at a time, each in its own browser context. Default 1: a model server answering several
   * runs at once answers each more slowly, which would blur the wall times.
   */
  concurrency?: number;
  log?: (line: string) => void;
}

/** The model name that runs the demo's offline stand-in in-process. */
export const OFFLINE_DEMO = 'offline-demo';

/** The launch flags the e2e suite uses (playwright.config.ts). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function chromiumPath(): string | undefined {
  return [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((path): path is string => !!path && existsSync(path));
}

/**
 * Runs the eval and resolves with the report (also written to `out`).
 *
 * @example
 * ```ts
 * const report = await runEval({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:3b', repeat: 3 });
 * ```
 */
export async function runEval(options: EvalOptions): Promise<EvalReport> {
  const log = options.log ?? (() => undefined);
  const arms = options.arms ?? ARMS;
  const pool = options.attack ? ATTACK_TASKS : TASKS;
  const tasks = options.tasks ? pool.filter((task) => options.tasks?.includes(task.id)) : pool;
  const unknown = (options.tasks ?? []).filter((id) => !pool.some((task) => task.id === id));
  if (unknown.length > 0)
    throw new Error(`Unknown${options.attack ? ' attack' : ''} task(s): ${unknown.join(', ')}. Tasks: ${pool.map((task) => task.id).join(', ')}.`);
  const repeat = options.repeat ?? 1;
  const stops: Array<() => Promise<unknown>> = [];
  try {
    let baseURL = options.baseURL;
    let makeLLM = options.llm;
    if (!makeLLM && options.model === OFFLINE_DEMO) {
      const [{ createOfflineModel }, { createPace }] = await Promise.all([import('../demo/offline-model/offline-model.js'), import('../demo/pace.js')]);
      makeLLM = () => createOfflineModel({ pace: () => createPace(true, new URLSearchParams()) });
    }
    if (makeLLM) baseURL = 'in-process';
    let scripted: ScriptedModel | undefined;
    if (!baseURL && (SCRIPTED_MODELS as readonly string[]).includes(options.model)) {
      scripted = await startScriptedModel([...TASKS, ...ATTACK_TASKS]);
      stops.push(() => scripted!.close());
      baseURL = scripted.baseURL;
    }
    if (!baseURL)
      throw new Error('Give --base-url (an OpenAI-compatible API root, e.g. http://localhost:11434/v1), or --model scripted-solve to try the harness.');
    const site = await startSiteServer(options.sitePort ?? 5400);
    stops.push(() => site.close());
    let demo = options.demoURL;
    if (!demo && tasks.some((task) => task.site === 'demo')) {
      const { createServer } = await import('vite');
      const port = options.demoPort ?? 5401;
      const server = await createServer({ server: { host: '127.0.0.1', port, strictPort: true }, logLevel: 'error' });
      await server.listen();
      stops.push(() => server.close());
      demo = `http://127.0.0.1:${port}`;
    }
    let browser = options.browser;
    if (!browser) {
      const { chromium } = await import('@playwright/test');
      const executablePath = chromiumPath();
      browser = await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS });
      const launched = browser;
      stops.push(() => launched.close());
    }
    // Arms take turns on each task, so a model server warming up or slowing down hits them alike.
    // Under --attack each task runs without its attack, then with it.
    const variants = options.attack ? [false, true] : [false];
    const jobs = Array.from({ length: repeat }, (_, i) => i + 1).flatMap((round) =>
      tasks.flatMap((task) => variants.flatMap((attacked) => arms.map((arm) => ({ round, task, arm, attacked })))),
    );
    const runs: TaskRun[] = new Array(jobs.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < jobs.length) {
        const index = next++;
        const { round, task, arm, attacked } = jobs[index]!;
        const run = await runTask({
          browser: browser!,
          task,
          arm,
          repeat: round,
          llm:
            makeLLM ??
            (() => createOpenAICompatibleProvider({ baseURL: baseURL!, model: options.model, ...(options.apiKey ? { apiKey: options.apiKey } : {}) })),
          origins: { demo, eval: site.origin },
          turnTimeoutMs: options.turnTimeoutMs ?? 120_000,
          runTimeoutMs: options.runTimeoutMs ?? 15 * 60_000,
          temperature: options.temperature,
          attacked,
        });
        runs[index] = run;
        // A wrong URL, model name or key fails every run alike: say so once instead of 42 times.
        if (index === 0 && run.error && /^provider_(error|unavailable)/.test(run.error)) {
          throw new Error(`The first run could not reach the model at ${baseURL} (model ${options.model}): ${run.error}`);
        }
        if (run.startPassed) log(`WARNING ${task.id}: its checker passes the page as it starts; the task checks nothing.`);
        log(
          `${run.passed ? 'done  ' : 'NOT   '} ${task.id}${attacked ? ' (attacked)' : ''} [${arm}] run ${round}: ${run.stepsDone}/${run.stepsTotal} steps, ${run.turns} turns, ${run.inputTokens}+${run.outputTokens} tokens, ${(run.wallMs / 1000).toFixed(1)} s${run.failures.length ? ` (${run.failures.join(', ')})` : ''}${run.attackEffects?.length ? `; ATTACK SUCCEEDED: ${run.attackEffects.join(', ')}` : ''}`,
        );
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 1, jobs.length)) }, worker));
    const report = summarize(runs, { model: options.model, baseURL, repeat });
    if (options.out !== null) {
      const files = await writeReport(report, options.out ?? 'eval/results');
      log(`Wrote ${files.markdown} and ${files.json}`);
    }
    return report;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

/**
 * The CLI's flags, parsed; throws a message for the user on a bad flag. Defaults: key from
 * `EVAL_API_KEY`, repeat 1, out eval/results, temperature 0, turn timeout 120 s, ports 5400/5401.
 *
 * @example
 * ```ts
 * parseArgs(['--base-url', 'http://localhost:11434/v1', '--model', 'qwen2.5:3b'], process.env);
 * ```
 */
export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): EvalOptions & { help?: boolean } {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { model: '', help: true };
    if (arg === '--attack') {
      flags.set('attack', 'true');
      continue;
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`Unexpected argument "${arg}". Run npm run eval -- --help.`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new Error(`--${match[1]} needs a value.`);
    flags.set(match[1] ?? '', value);
  }
  const known = [
    'attack',
    'base-url',
    'model',
    'api-key-env',
    'arms',
    'tasks',
    'repeat',
    'out',
    'demo-url',
    'demo-port',
    'site-port',
    'turn-timeout',
    'temperature',
  ];
  for (const name of flags.keys()) if (!known.includes(name)) throw new Error(`Unknown flag --${name}. Flags: ${known.map((k) => `--${k}`).join(', ')}.`);
  const model = flags.get('model');
  if (!model) throw new Error('Give --model (the model name the endpoint knows, e.g. qwen2.5:3b), or --model scripted-solve to try the harness.');
  const number = (name: string, fallback: number) => {
    const raw = flags.get(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number, not "${raw}".`);
    return value;
  };
  const arms = flags
    .get('arms')
    ?.split(',')
    .map((arm) => arm.trim()) as ArmName[] | undefined;
  const badArm = arms?.find((arm) => !(ARMS as readonly string[]).includes(arm));
  if (badArm) throw new Error(`Unknown arm "${badArm}". Arms: ${ARMS.join(', ')}.`);
  const keyEnv = flags.get('api-key-env') ?? 'EVAL_API_KEY';
  const temperature = flags.get('temperature');
  return {
    baseURL: flags.get('base-url'),
    model,
    apiKey: env[keyEnv],
    ...(arms ? { arms } : {}),
    ...(flags.has('attack') ? { attack: true } : {}),
    ...(flags.has('tasks') ? { tasks: (flags.get('tasks') ?? '').split(',').map((id) => id.trim()) } : {}),
    repeat: Math.max(1, Math.round(number('repeat', 1))),
    out: flags.get('out') ?? 'eval/results',
    demoURL: flags.get('demo-url'),
    demoPort: number('demo-port', 5401),
    sitePort: number('site-port', 5400),
    turnTimeoutMs: number('turn-timeout', 120) * 1000,
    temperature: temperature === undefined ? 0 : number('temperature', 0),
  };
}

/** What `npm run eval -- --help` prints. */
export const USAGE = `npm run eval -- --base-url <OpenAI-compatible API root> --model <name> [flags]

  --base-url URL        e.g. http://localhost:11434/v1 (Ollama), http://localhost:8080/v1 (llama.cpp), http://localhost:8000/v1 (vLLM)
  --model NAME          the model the endpoint serves; scripted-solve / scripted-quit / scripted-claim / scripted-obey play the
                        tasks' scripts, offline-demo runs the demo's offline stand-in (no model needed for these)
  --api-key-env NAME    the environment variable holding the API key (default EVAL_API_KEY; none is sent when it is unset)
  --arms LIST           planloop,no-plan,write-todos (default all three)
  --tasks LIST          task ids (default all: ${TASKS.map((task) => task.id).join(', ')})
  --attack              run the attack tasks instead (${ATTACK_TASKS.map((task) => task.id).join(', ')}), each without and
                        with an attacker's instruction in its pages: utility, utility under attack, attack success
  --repeat N            runs per task and arm (default 1)
  --out DIR             where <model>.md and .json go (default eval/results)
  --temperature T       default 0
  --turn-timeout S      seconds one model answer may take (default 120)
  --demo-url URL        a running demo to use (default: start one on --demo-port, 5401)
  --site-port P         the eval's own pages (default 5400)

Nothing is sent anywhere but --base-url; the pages are served on 127.0.0.1.`;
