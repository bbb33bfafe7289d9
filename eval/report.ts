// Sums runs up per arm and per task, and writes eval/results/<model>.md and .json.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ARMS, type ArmName } from './arms.js';
import { FAILURE_KINDS, type FailureKind } from './failures.js';
import type { TaskRun } from './run-task.js';

/** A mean with its spread over repeats. */
export interface Spread {
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

/** One arm over every task and repeat. */
export interface ArmSummary {
  readonly arm: ArmName;
  readonly runs: number;
  /** Tasks fully done per repeat (mean, min, max over repeats), out of `tasks`. */
  readonly tasksDone: Spread;
  readonly tasks: number;
  /** Share of steps done over all runs (0 to 1). */
  readonly stepsDone: number;
  /** Per run: turns, input and output tokens, wall time. */
  readonly turns: Spread;
  readonly inputTokens: Spread;
  readonly outputTokens: Spread;
  readonly wallMs: Spread;
  /** Runs showing each failure kind. */
  readonly failures: Readonly<Record<FailureKind, number>>;
}

/** One task in one arm over its repeats. */
export interface TaskSummary {
  readonly task: string;
  readonly arm: ArmName;
  readonly done: number;
  readonly runs: number;
  readonly steps: Spread;
  readonly stepsTotal: number;
  readonly turns: Spread;
}

/** The whole report. */
export interface EvalReport {
  readonly model: string;
  readonly baseURL: string;
  readonly date: string;
  readonly repeat: number;
  readonly arms: readonly ArmSummary[];
  readonly tasks: readonly TaskSummary[];
  readonly runs: readonly TaskRun[];
}

/**
 * Mean, min and max (zeros for none).
 *
 * @example
 * ```ts
 * spread([1, 2]); // { mean: 1.5, min: 1, max: 2 }
 * ```
 */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: 0, min: 0, max: 0 };
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, min: Math.min(...values), max: Math.max(...values) };
}

/**
 * Sums the runs up.
 *
 * @example
 * ```ts
 * const report = summarize(runs, { model: 'qwen2.5:3b', baseURL, repeat: 3 });
 * report.arms[0].tasksDone.mean;
 * ```
 */
export function summarize(runs: readonly TaskRun[], meta: { model: string; baseURL: string; repeat: number; date?: string }): EvalReport {
  const arms = ARMS.filter((arm) => runs.some((run) => run.arm === arm));
  const taskIds = [...new Set(runs.map((run) => run.task))];
  const armSummaries = arms.map((arm): ArmSummary => {
    const mine = runs.filter((run) => run.arm === arm);
    const repeats = [...new Set(mine.map((run) => run.repeat))];
    const failures = Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, mine.filter((run) => run.failures.includes(kind)).length])) as Record<
      FailureKind,
      number
    >;
    const stepsTotal = mine.reduce((sum, run) => sum + run.stepsTotal, 0);
    return {
      arm,
      runs: mine.length,
      tasks: new Set(mine.map((run) => run.task)).size,
      tasksDone: spread(repeats.map((repeat) => mine.filter((run) => run.repeat === repeat && run.passed).length)),
      stepsDone: stepsTotal === 0 ? 0 : mine.reduce((sum, run) => sum + run.stepsDone, 0) / stepsTotal,
      turns: spread(mine.map((run) => run.turns)),
      inputTokens: spread(mine.map((run) => run.inputTokens)),
      outputTokens: spread(mine.map((run) => run.outputTokens)),
      wallMs: spread(mine.map((run) => run.wallMs)),
      failures,
    };
  });
  const taskSummaries = taskIds.flatMap((task) =>
    arms.flatMap((arm): TaskSummary[] => {
      const mine = runs.filter((run) => run.task === task && run.arm === arm);
      if (mine.length === 0) return [];
      return [
        {
          task,
          arm,
          done: mine.filter((run) => run.passed).length,
          runs: mine.length,
          steps: spread(mine.map((run) => run.stepsDone)),
          stepsTotal: mine[0]?.stepsTotal ?? 0,
          turns: spread(mine.map((run) => run.turns)),
        },
      ];
    }),
  );
  return {
    model: meta.model,
    baseURL: meta.baseURL,
    date: meta.date ?? new Date().toISOString(),
    repeat: meta.repeat,
    arms: armSummaries,
    tasks: taskSummaries,
    runs,
  };
}

const round = (value: number, digits = 1) => Number(value.toFixed(digits)).toLocaleString('en-US');
const showSpread = (value: Spread, digits = 1) =>
  round(value.min, digits) === round(value.max, digits)
    ? round(value.mean, digits)
    : `${round(value.mean, digits)} (${round(value.min, digits)}–${round(value.max, digits)})`;

/**
 * The report as markdown: per arm, failure kinds, per task, and every run not fully done.
 *
 * @example
 * ```ts
 * writeFileSync('report.md', renderMarkdown(report));
 * ```
 */
export function renderMarkdown(report: EvalReport): string {
  const lines = [
    `# planloop eval: ${report.model}`,
    '',
    `${report.date}, endpoint ${report.baseURL}, ${report.repeat} run(s) per task and arm. Written by \`npm run eval\` (see the README's "Does planning help?").`,
    'Figures in parentheses are the lowest and highest over runs (tasks done: over repeats).',
    ...(report.runs.some((run) => !run.usageReported)
      ? [
          `Token counts are what the server reported; it reported none (counted as 0) on some calls of ${report.runs.filter((run) => !run.usageReported).length} of ${report.runs.length} runs.`,
        ]
      : []),
    '',
    '| arm | tasks fully done | steps done | turns / task | input tokens / task | output tokens / task | wall time / task |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...report.arms.map(
      (arm) =>
        `| ${arm.arm} | ${showSpread(arm.tasksDone)} of ${arm.tasks} | ${round(arm.stepsDone * 100, 0)}% | ${showSpread(arm.turns)} | ${showSpread(arm.inputTokens, 0)} | ${showSpread(arm.outputTokens, 0)} | ${showSpread({ mean: arm.wallMs.mean / 1000, min: arm.wallMs.min / 1000, max: arm.wallMs.max / 1000 })} s |`,
    ),
    '',
    '## Failure kinds (runs showing each)',
    '',
    `| arm | ${FAILURE_KINDS.join(' | ')} |`,
    `| --- | ${FAILURE_KINDS.map(() => '---').join(' | ')} |`,
    ...report.arms.map((arm) => `| ${arm.arm} | ${FAILURE_KINDS.map((kind) => arm.failures[kind]).join(' | ')} |`),
    '',
    '## Per task (runs fully done; steps done; turns)',
    '',
    `| task | ${report.arms.map((arm) => arm.arm).join(' | ')} |`,
    `| --- | ${report.arms.map(() => '---').join(' | ')} |`,
    ...[...new Set(report.tasks.map((task) => task.task))].map((id) => {
      const cells = report.arms.map((arm) => {
        const row = report.tasks.find((task) => task.task === id && task.arm === arm.arm);
        return row ? `${row.done}/${row.runs}; ${showSpread(row.steps)} of ${row.stepsTotal}; ${showSpread(row.turns)}` : '';
      });
      return `| ${id} | ${cells.join(' | ')} |`;
    }),
  ];
  const failed = report.runs.filter((run) => !run.passed);
  if (failed.length > 0) {
    lines.push('', '## Runs not fully done', '');
    for (const run of failed) {
      const missing = run.steps.map((ok, index) => (ok ? undefined : index + 1)).filter((index) => index !== undefined);
      lines.push(
        `- ${run.task}, ${run.arm}, run ${run.repeat}: ${run.stepsDone}/${run.stepsTotal} steps (missing ${missing.join(', ') || 'none'}), ended ${run.reason}${run.failures.length ? `; ${run.failures.join(', ')}` : ''}${run.outside.length ? `; outside: ${run.outside.join(', ')}` : ''}${run.error ? `; ${run.error.replace(/\|/g, '/').slice(0, 160)}` : ''}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The file name for a model.
 *
 * @example
 * ```ts
 * resultName('qwen2.5:3b'); // 'qwen2.5-3b'
 * ```
 */
export function resultName(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
}

/**
 * Writes `<dir>/<model>.md` and `.json`; resolves with both paths.
 *
 * @example
 * ```ts
 * await writeReport(report, 'eval/results');
 * ```
 */
export async function writeReport(report: EvalReport, dir: string): Promise<{ markdown: string; json: string }> {
  await mkdir(dir, { recursive: true });
  const base = join(dir, resultName(report.model));
  await writeFile(`${base}.md`, renderMarkdown(report));
  await writeFile(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  return { markdown: `${base}.md`, json: `${base}.json` };
}
