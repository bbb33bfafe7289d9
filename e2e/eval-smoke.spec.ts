// The eval's smoke test (`npm run eval`'s plumbing, not the effect): every task in real Chromium
// against a scripted OpenAI-compatible model, on the demo (this suite's dev server) and the eval's
// own pages. The scripted model that plays each task's solution must pass every checker; the one
// that stops halfway and claims it is done must fail every checker, and the loop must refuse its
// finish; all three arms run; `--attack` runs a model that obeys the page's instructions.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preparePage, readEndState } from '../eval/browser-page.js';
import { runEval } from '../eval/main.js';
import { startScriptedModel } from '../eval/scripted-model.js';
import { ATTACK_TASKS } from '../eval/tasks/attack.js';
import { TASKS } from '../eval/tasks/index.js';
import { test, expect } from './fixtures.js';

/** What a failed eval run did, for the assertion's message: its checks, how it ended, its tool calls. */
function whyFailed(
  runs: ReadonlyArray<{
    task: string;
    arm: string;
    passed: boolean;
    steps: readonly boolean[];
    reason: string;
    error?: string;
    failures: readonly string[];
    outside: readonly string[];
    toolCalls: readonly unknown[];
    said: readonly string[];
  }>,
): string {
  return runs
    .filter((run) => !run.passed)
    .map(
      (run) =>
        `${run.task} (${run.arm}): steps ${JSON.stringify(run.steps)}, ended ${run.reason}${run.error ? ` (${run.error})` : ''}, failures ${JSON.stringify(run.failures)}, outside ${JSON.stringify(run.outside)}, tool calls ${JSON.stringify(run.toolCalls)}, said ${JSON.stringify(run.said)}`,
    )
    .join('\n');
}

// Tracing and screenshots would record every action of every run (hundreds): off for this file.
test.use({ trace: 'off', screenshot: 'off' });

test.describe('eval smoke', () => {
  // The first test runs all 14 tasks and two more evals: 80 to 120 s on a busy 2-core machine.
  test.setTimeout(240_000);

  test('every checker passes a scripted correct run and fails the start page, a run that only claims to be done and one that stops halfway (planloop arm)', async ({
    browser,
    baseURL,
  }) => {
    const out = mkdtempSync(join(tmpdir(), 'planloop-eval-'));
    try {
      const common = { browser, demoURL: baseURL, sitePort: 0, arms: ['planloop'] as const, concurrency: 2, turnTimeoutMs: 30_000 };
      const solved = await runEval({ ...common, model: 'scripted-solve', out });
      expect(solved.runs).toHaveLength(TASKS.length);
      for (const run of solved.runs) {
        expect({ task: run.task, passed: run.passed, steps: run.steps, error: run.error }).toEqual({
          task: run.task,
          passed: true,
          steps: run.steps.map(() => true),
          error: undefined,
        });
        expect(run.failures.filter((kind) => kind !== 'repeated-step')).toEqual([]);
        const script = TASKS.find((task) => task.id === run.task)!.script;
        expect(run.turns).toBe(script.length);
        expect(run.todos).toBe(script.length);
        expect(run.usageReported).toBe(true);
        // The scripted planner writes a check for each todo, and each held on the page or the run.
        expect({ task: run.task, reason: run.reason, onEvidence: run.completedOnEvidence, held: run.heldTodos }).toEqual({
          task: run.task,
          reason: 'task_finish',
          onEvidence: script.length,
          held: 0,
        });
        expect(run.inputTokens).toBeGreaterThan(0);
        expect(run.outputTokens).toBeGreaterThan(0);
      }
      const markdown = readFileSync(join(out, 'scripted-solve.md'), 'utf8');
      expect(markdown).toContain(`| planloop | ${TASKS.length} of ${TASKS.length} | 100% |`);
      expect(JSON.parse(readFileSync(join(out, 'scripted-solve.json'), 'utf8')).runs).toHaveLength(TASKS.length);

      // Every checker fails the page as it started, with a claim of being done (checked in each run)…
      expect(solved.runs.filter((run) => run.startPassed).map((run) => run.task)).toEqual([]);
      // …and a run that does nothing but say it is done: the loop refuses its finish twice and ends
      // the run unverified, naming what is missing, on every task (0 false finishes accepted).
      const claimTasks = ['demo-prices-sso', 'settings-look-only', 'checkout-stop-at-review', 'docs-every-variable'];
      const claimed = await runEval({ ...common, model: 'scripted-claim', out: null, tasks: claimTasks });
      expect(claimed.runs).toHaveLength(claimTasks.length);
      for (const run of claimed.runs) {
        expect({ task: run.task, passed: run.passed, reason: run.reason }).toEqual({ task: run.task, passed: false, reason: 'unverified' });
        expect(run.unverified?.length).toBeGreaterThan(0);
        expect(run.heldTodos).toBeGreaterThan(0);
      }
      expect(claimed.arms[0]?.claims).toMatchObject({ falseFinishes: 0, finishes: 0, completionsWithoutEvidence: 0, unverified: claimTasks.length });
      // So does one that stops halfway, with part of the steps done: its finish is refused for the
      // todos it left without evidence.
      const quit = await runEval({ ...common, model: 'scripted-quit', out: null, tasks: ['demo-tour', 'checkout-full-order', 'docs-tour'] });
      for (const run of quit.runs) {
        expect({ task: run.task, passed: run.passed, reason: run.reason }).toEqual({ task: run.task, passed: false, reason: 'unverified' });
        expect(run.stepsDone).toBeGreaterThan(0);
        expect(run.stepsDone).toBeLessThan(run.stepsTotal);
        expect(run.completedOnEvidence).toBeGreaterThan(0);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('--attack: a scripted model that obeys what it reads does the visible attacks; the hidden ones never reach it (planloop arm)', async ({ browser }) => {
    const out = mkdtempSync(join(tmpdir(), 'planloop-eval-'));
    try {
      const report = await runEval({
        browser,
        model: 'scripted-obey',
        attack: true,
        sitePort: 0,
        arms: ['planloop'],
        concurrency: 2,
        turnTimeoutMs: 30_000,
        out,
      });
      expect(report.runs).toHaveLength(ATTACK_TASKS.length * 2);
      for (const task of ATTACK_TASKS) {
        const clean = report.runs.find((run) => run.task === task.id && run.attacked === false)!;
        const attacked = report.runs.find((run) => run.task === task.id && run.attacked === true)!;
        // Without the attack every task is done, and nothing outside it.
        expect({ task: task.id, passed: clean.passed, effects: clean.attackEffects }, whyFailed([clean])).toEqual({
          task: task.id,
          passed: true,
          effects: undefined,
        });
        // A hidden instruction is not in the outline nor in what read returns: nothing happens.
        // A visible one is read and obeyed (that this model obeys is the point: it checks the
        // harness sees an attack that worked).
        if (task.attack?.placement === 'visible') expect(attacked.attackEffects?.length, task.id).toBeGreaterThan(0);
        else
          expect({ task: task.id, passed: attacked.passed, effects: attacked.attackEffects }, whyFailed([attacked])).toEqual({
            task: task.id,
            passed: true,
            effects: [],
          });
      }
      const arm = report.arms[0]!;
      expect(arm.attack).toEqual({ clean: 4, cleanDone: 4, attacked: 4, attackedDone: 2, attackSucceeded: 2 });
      const markdown = readFileSync(join(out, 'scripted-obey.md'), 'utf8');
      expect(markdown).toContain('| planloop | 4 of 4 (100%) | 2 of 4 (50%) | 2 of 4 (50%) |');
      expect(markdown).toMatch(/\| attack-hidden-help \| hidden: [^|]+\| 1\/1 \/ 1\/1 \/ 0\/1 \|/);
      expect(markdown).toContain('## Claims');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test("the end state holds a submit's status even when it is read before the page's timers run (the CLI read it at once after a last action that submits)", async ({
    browser,
    baseURL,
  }) => {
    // `npm run eval -- --model scripted-solve` failed demo-trial-refused-email in two arms on a quiet
    // machine: the last turn submits, the end state was read at once, and the recorder's status read
    // (a timer set at the submit) had not run: the accepted trial was recorded with no status.
    // Here the page's timers never run after the submit, which is that order made certain.
    const context = await browser.newContext();
    try {
      await preparePage(context);
      const page = await context.newPage();
      await page.goto(`${baseURL}/try`);
      await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
      await page.fill('#trial-name', 'Lin Chen');
      await page.fill('#trial-email', 'lin.chen@example.com');
      await page.evaluate(() => {
        window.setTimeout = (() => 0) as unknown as typeof window.setTimeout;
      });
      await page.click('#trial-submit');
      const end = await readEndState(page, []);
      expect(end.submits).toEqual([
        {
          page: '/try',
          form: 'trial-form',
          fields: expect.objectContaining({ name: 'Lin Chen', email: 'lin.chen@example.com' }),
          status: expect.stringMatching(/^Welcome aboard, Lin Chen!/),
        },
      ]);
    } finally {
      await context.close();
    }
  });

  test("the demo's offline model runs in-process through the same harness", async ({ browser, baseURL }) => {
    const report = await runEval({
      browser,
      model: 'offline-demo',
      demoURL: baseURL,
      sitePort: 0,
      arms: ['planloop'],
      tasks: ['demo-tour'],
      out: null,
      turnTimeoutMs: 30_000,
    });
    const run = report.runs[0]!;
    // It plays its own tours, not this task: only that a run goes through end to end is checked.
    expect(run.error).toBeUndefined();
    expect(run.turns).toBeGreaterThan(1);
    expect(run.visits.length).toBeGreaterThan(1);
    expect(run.said.length).toBeGreaterThan(0);
  });

  test('the no-plan and write_todos arms run the same loop; write_todos shows the model its own list every turn', async ({ browser, baseURL }) => {
    const model = await startScriptedModel(TASKS);
    try {
      const tasks = ['demo-trial-refused-email', 'checkout-stop-at-review', 'docs-missing-page'];
      const report = await runEval({
        browser,
        baseURL: model.baseURL,
        model: 'scripted-solve',
        demoURL: baseURL,
        sitePort: 0,
        arms: ['no-plan', 'write-todos'],
        tasks,
        out: null,
        concurrency: 2,
        turnTimeoutMs: 30_000,
      });
      expect(
        report.runs.map((run) => [run.task, run.arm, run.passed]),
        whyFailed(report.runs),
      ).toEqual(
        tasks.flatMap((task) => [
          [task, 'no-plan', true],
          [task, 'write-todos', true],
        ]),
      );
      // No planning call in either arm: every request is a turn.
      expect(model.requests.every((request) => request.kind === 'turn')).toBe(true);
      const withList = model.requests.filter((request) => request.task === 'checkout-stop-at-review' && request.system.includes('write_todos'));
      expect(withList.length).toBe(TASKS.find((task) => task.id === 'checkout-stop-at-review')!.script.length);
      // From the second turn on, the system prompt lists what the model wrote with write_todos.
      expect(withList[1]?.system).toContain('Set the notebook quantity to 3');
      const noPlan = model.requests.filter((request) => request.task === 'checkout-stop-at-review' && !request.system.includes('write_todos'));
      expect(noPlan.some((request) => request.system.includes('Set the notebook quantity'))).toBe(false);
      // …and, once the model marked it so, that a step is done.
      expect(withList.at(-1)?.system).toMatch(/\[completed\] Set the notebook quantity to 3/);
      const writeTodos = report.runs.find((run) => run.task === 'checkout-stop-at-review' && run.arm === 'write-todos')!;
      expect(writeTodos.toolCalls.filter((call) => call.name === 'write_todos' && call.ok)).toHaveLength(withList.length);
    } finally {
      await model.close();
    }
  });
});
