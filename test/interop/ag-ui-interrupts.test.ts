/**
 * A run's approval as an AG-UI interrupt (issue 33): the host ends its AG-UI run with the run's
 * pending request as `RUN_FINISHED { outcome: interrupt }`, the frontend answers in the next
 * `RunAgentInput.resume`, and the run goes on with the answer. Every event and input passes
 * @ag-ui/core's own schemas.
 */
import { EventSchemas, InterruptSchema, RunAgentInputSchema } from '@ag-ui/core/schemas';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { applyAGUIResume, toAGUIRunInterrupted, type AGUIRunInterruptedEvent } from '../../src/interop/ag-ui-interrupts.js';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import type { Run } from '../../src/loop/run-state.js';
import { startRun } from '../../src/loop/start-run.js';
import { Plan } from '../../src/plan.js';

const SUBMIT_TURNS = [
  { turn_planning: { todo_id: 't1', does: 'Send the trial form' }, actions: [{ type: 'tool', name: 'submit', args: { form: 'trial' } }] },
  { todo: 't1', last: true, actions: [{ type: 'task_finish', summary: 'Done.' }] },
];

/** A host speaking AG-UI: each time the run waits for an approval it ends its AG-UI run with the interrupt. */
function aguiHost(answer: (event: AGUIRunInterruptedEvent) => unknown) {
  const model = createScriptedProvider(SUBMIT_TURNS);
  const plan = new Plan({
    llm: createLLMRouter({
      default: model,
      plan: createScriptedProvider([{ task_summary: 'Start a trial', todos: [{ intent: 'click', description: 'Send the trial form' }] }]),
    }),
  });
  const ran: string[] = [];
  const sent: AGUIRunInterruptedEvent[] = [];
  const run = startRun(plan, {
    task: 'Start a trial',
    tools: { submit: { risk: 'irreversible', description: 'send the form {form}', run: ({ form }) => void ran.push(`submit ${String(form)}`) } },
    approval: { ask: 'state', timeoutMs: 60_000 },
    page: { url: () => '/trial' },
  });
  let aguiRun = 0;
  run.subscribe(() => {
    const event = toAGUIRunInterrupted(run, { threadId: 'thread-1', runId: `agui-${++aguiRun}` }, { timestamp: () => 1_700_000_000_000 });
    if (!event || sent.some((earlier) => earlier.outcome.interrupts[0]?.id === event.outcome.interrupts[0]?.id)) return;
    sent.push(event);
    // The frontend answers by starting the next AG-UI run with a resume entry.
    queueMicrotask(() => {
      const input = RunAgentInputSchema.parse({
        threadId: 'thread-1',
        runId: `agui-${aguiRun + 1}`,
        messages: [],
        tools: [],
        context: [],
        resume: answer(event),
      });
      applyAGUIResume(run, input.resume);
    });
  });
  return { run, model, ran, sent };
}

const lastPrompt = (model: { calls: Array<{ messages: Array<{ content: string }> }> }, call: number) => model.calls[call]?.messages.at(-1)?.content ?? '';

describe('approvals as AG-UI interrupts', () => {
  it('surfaces the pending request as RUN_FINISHED with an interrupt outcome (reason confirmation) that @ag-ui/core accepts', async () => {
    const { run, sent, ran } = aguiHost((event) => [{ interruptId: event.outcome.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]);
    await run.result;
    expect(sent).toHaveLength(1);
    const [event] = sent as [AGUIRunInterruptedEvent];
    expect(EventSchemas.safeParse(event).success).toBe(true);
    const [interrupt] = event.outcome.interrupts;
    expect(InterruptSchema.safeParse(interrupt).success).toBe(true);
    expect(interrupt).toMatchObject({
      id: `${run.runId}.a1`,
      reason: 'confirmation',
      message: 'send the form trial',
      responseSchema: { type: 'object', required: ['approved'] },
      metadata: {
        planloop: {
          kind: 'action',
          tool: 'submit',
          args: { form: 'trial' },
          risk: 'irreversible',
          url: '/trial',
          purpose: 'Send the trial form',
          todo: { id: 't1' },
        },
      },
    });
    expect(Date.parse(interrupt!.expiresAt ?? '')).toBeGreaterThan(Date.now());
    // Resumed with a yes: the action ran, and the run no longer waits.
    expect(ran).toEqual(['submit trial']);
    expect(run.state.approval).toBeNull();
    expect(toAGUIRunInterrupted(run, { threadId: 'thread-1', runId: 'agui-9' })).toBeNull();
  });

  it('a cancelled interrupt, a no and an unclear payload are each a no the model hears; only a clear yes runs the action', async () => {
    for (const [payload, status, heard] of [
      [undefined, 'cancelled', 'submit was not run: the user declined: the question was cancelled.'],
      [{ approved: false, reason: 'not with my card' }, 'resolved', 'submit was not run: the user declined: not with my card.'],
      [{ approved: 'yes' }, 'resolved', 'submit was not run: the approval hook gave no clear yes.'],
    ] as const) {
      const { run, model, ran } = aguiHost((event) => [{ interruptId: event.outcome.interrupts[0]!.id, status, ...(payload ? { payload } : {}) }]);
      await run.result;
      expect(ran).toEqual([]);
      expect(lastPrompt(model, 1)).toContain(heard);
    }
  });

  it('leaves entries for other interrupts alone, and refuses a resume that is no list of resume entries, answering nothing', async () => {
    let answered: boolean[] = [];
    const { run, ran } = aguiHost((event) => {
      const pending = run.state.approval!;
      answered = [applyAGUIResume(run, [{ interruptId: 'someone-else', status: 'resolved', payload: { approved: true } }])];
      expect(() => applyAGUIResume(run, [{ interruptId: pending.id, status: 'approved' }])).toThrow(ValidationError);
      expect(() => applyAGUIResume(run, { interruptId: pending.id })).toThrow(/The AG-UI resume was not applied: resume/);
      expect(run.state.approval?.id).toBe(pending.id);
      return [{ interruptId: event.outcome.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }];
    });
    await run.result;
    expect(answered).toEqual([false]);
    expect(ran).toEqual(['submit trial']);
  });

  it('works with a host hook too: the run answers whichever comes first, and withdraws the other', async () => {
    const plan = new Plan({
      llm: createLLMRouter({
        default: createScriptedProvider(SUBMIT_TURNS),
        plan: createScriptedProvider([{ task_summary: 'x', todos: [{ intent: 'click', description: 'Send' }] }]),
      }),
    });
    let withdrawn = false;
    const run: Run = startRun(plan, {
      task: 'x',
      tools: { submit: { risk: 'irreversible', run: () => 'sent' } },
      approval: {
        ask: (_request, { signal }) => new Promise(() => signal.addEventListener('abort', () => (withdrawn = true))), // a panel in another tab, unanswered
      },
    });
    run.subscribe(({ approval }) => {
      if (approval) setTimeout(() => applyAGUIResume(run, [{ interruptId: approval.id, status: 'resolved', payload: { approved: true } }]), 5);
    });
    await expect(run.result).resolves.toMatchObject({ reason: 'task_finish' });
    expect(withdrawn).toBe(true);
  });
});
