import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { PlanloopError } from '../../src/errors.js';
import { GraphValidationError, StateWriteOnceError, ToolCallError } from '../../src/graph/errors.js';
import { runToolPlan, type ToolGraphEvents } from '../../src/graph/run.js';
import { GraphState } from '../../src/graph/state.js';
import { defineTool, toolOutcome } from '../../src/graph/tool.js';
import { Plan } from '../../src/plan.js';
import { deferred, flush, recordingTool } from './fixtures.js';

/** Records every event of a run as `name:index`. */
function recordEvents(run: { on: <K extends keyof ToolGraphEvents & string>(name: K, listener: (payload: ToolGraphEvents[K]) => void) => () => void }) {
  const log: string[] = [];
  for (const name of ['call-start', 'call-end', 'call-error', 'call-skip'] as const) {
    run.on(name, (payload) => log.push(`${name}:${payload.index}`));
  }
  return log;
}

describe('runToolPlan', () => {
  it('runs the seed’s two-step plan through the state, with events per call', async () => {
    const fetchUserProfile = recordingTool('fetchUserProfile', ({ userName }) => ({ name: userName, plan: 'pro' }));
    const summarizeProfile = recordingTool('summarizeProfile', ({ profile }) => `${(profile as { name: string }).name} is on pro`);
    const run = runToolPlan(
      [
        { _tool: 'fetchUserProfile', userName: 'Alice', _outputPath: '†state.userProfileData' },
        { _tool: 'summarizeProfile', profile: '†state.userProfileData', _outputPath: '†state.profileSummary' },
      ],
      { tools: [fetchUserProfile, summarizeProfile] },
    );
    const log = recordEvents(run);
    const result = await run;
    expect(result.state).toEqual({ userProfileData: { name: 'Alice', plan: 'pro' }, profileSummary: 'Alice is on pro' });
    expect(log).toEqual(['call-start:0', 'call-end:0', 'call-start:1', 'call-end:1']);
    expect(result.calls.map((call) => [call.status, call.wrote])).toEqual([
      ['completed', ['state.userProfileData']],
      ['completed', ['state.profileSummary']],
    ]);
  });

  it('resolves references nested in arrays and objects, and passes other literals through', async () => {
    const search = recordingTool('search');
    await runToolPlan([{ _tool: 'search', filters: { city: '$input.city', tags: ['dogs', '†input.extra'] }, limit: 3, note: 'a $5 fee' }], {
      tools: [search],
      input: { city: 'Berlin', extra: 'garden' },
    });
    expect(search.calls).toEqual([{ filters: { city: 'Berlin', tags: ['dogs', 'garden'] }, limit: 3, note: 'a $5 fee' }]);
  });

  it('runs independent calls at the same time (counted in flight, not timed)', async () => {
    let inFlight = 0;
    let most = 0;
    const release = deferred();
    const slow = recordingTool('slow', async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await release.promise;
      inFlight--;
      return 1;
    });
    const run = runToolPlan(
      [0, 1, 2].map((n) => ({ _tool: 'slow', n, _outputPath: `†state.r${n}` })),
      { tools: [slow] },
    ).result;
    await flush();
    expect(inFlight).toBe(3);
    release.resolve();
    await run;
    expect(most).toBe(3);
  });

  it('keeps to the concurrency limit, starting ties in plan order', async () => {
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const work = recordingTool('work', async ({ n }) => {
      started.push(n as number);
      inFlight++;
      most = Math.max(most, inFlight);
      await flush();
      inFlight--;
      return n;
    });
    const result = await runToolPlan(
      [0, 1, 2, 3, 4, 5].map((n) => ({ _tool: 'work', n, _outputPath: `†state.r${n}` })),
      { tools: [work], concurrency: 2 },
    );
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Object.keys(result.state)).toHaveLength(6);
  });

  it('refuses a concurrency below 1', async () => {
    await expect(runToolPlan([], { tools: [], concurrency: 0 })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('opens a gate only when every path exists, and passes the last', async () => {
    const a = deferred<string>();
    const b = deferred<string>();
    const first = recordingTool('first', () => a.promise);
    const second = recordingTool('second', () => b.promise);
    const gated = recordingTool('gated', ({ value }) => value);
    const run = runToolPlan(
      [
        { _tool: 'gated', value: '†state.a && †state.b', _outputPath: '†state.out' },
        { _tool: 'first', _outputPath: '†state.a' },
        { _tool: 'second', _outputPath: '†state.b' },
      ],
      { tools: [first, second, gated] },
    );
    const log = recordEvents(run);
    await flush();
    b.resolve('B');
    await flush();
    expect(gated.calls).toHaveLength(0);
    a.resolve('A');
    const result = await run;
    expect(gated.calls).toEqual([{ value: 'B' }]);
    expect(log.indexOf('call-start:0')).toBeGreaterThan(log.indexOf('call-end:1'));
    expect(result.state.out).toBe('B');
  });

  it('takes the first present path of a fallback, waiting while an earlier one may still be written', async () => {
    const nick = deferred<string>();
    const nickname = recordingTool('nickname', () => nick.promise);
    const greet = recordingTool('greet', ({ who }) => `hi ${String(who)}`);
    const run = runToolPlan(
      [
        { _tool: 'nickname', _outputPath: '†state.nick' },
        { _tool: 'greet', who: '†state.nick || †input.name', _outputPath: '†state.greeting' },
      ],
      { tools: [nickname, greet], input: { name: 'Alexandra' } },
    ).result;
    await flush();
    expect(greet.calls).toHaveLength(0);
    nick.resolve('Alex');
    expect((await run).state.greeting).toBe('hi Alex');

    const fallback = await runToolPlan([{ _tool: 'greet', who: '†input.nick || †input.name' }], {
      tools: [greet],
      input: { name: 'Alexandra' },
    });
    expect(fallback.calls[0]!.result).toBe('hi Alexandra');
  });

  it('fans one result out to every path', async () => {
    const make = recordingTool('make', () => ({ id: 7 }));
    const use = recordingTool('use', ({ x }) => x);
    const result = await runToolPlan(
      [
        { _tool: 'make', _outputPath: '†state.order && †state.audit.last' },
        { _tool: 'use', x: '†state.audit.last.id' },
      ],
      { tools: [make, use] },
    );
    expect(result.state).toEqual({ order: { id: 7 }, audit: { last: { id: 7 } } });
    expect(result.calls[0]!.wrote).toEqual(['state.order', 'state.audit.last']);
    expect(use.calls).toEqual([{ x: 7 }]);
  });

  it('writes a failure to the last alternative and skips the calls waiting on the success path', async () => {
    const processPayment = recordingTool('processPayment', () => {
      throw Object.assign(new Error('Your card was declined.'), { code: 'card_declined' });
    });
    const confirmOrder = recordingTool('confirmOrder');
    const gated = recordingTool('gatedOnReceipt');
    const run = runToolPlan(
      [
        { _tool: 'processPayment', amount: 50, _outputPath: '†state.receipt || †state.error' },
        { _tool: 'confirmOrder', receipt: '†state.receipt' },
        { _tool: 'gatedOnReceipt', go: '†state.error && †state.receipt' },
      ],
      { tools: [processPayment, confirmOrder, gated] },
    );
    const log = recordEvents(run);
    const errors: ToolGraphEvents['call-error'][] = [];
    run.on('call-error', (event) => errors.push(event));
    const result = await run;
    expect(result.state).toEqual({ error: { message: 'Your card was declined.', code: 'card_declined' } });
    expect(result.calls.map((call) => call.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(result.calls[1]!.reason).toBe('state.receipt was never written');
    expect(errors[0]).toMatchObject({ index: 0, handled: true, wrote: ['state.error'] });
    expect(log).toEqual(['call-start:0', 'call-error:0', 'call-skip:1', 'call-skip:2']);
    expect(confirmOrder.calls).toHaveLength(0);
  });

  it('lets a tool pick an alternative with toolOutcome, and treats an undeclared one as a failure', async () => {
    const find = recordingTool('findHotel', ({ city }) => (city === 'Berlin' ? { name: 'Hotel Hund' } : toolOutcome('†state.noHotel', { city })));
    const plan = (city: string) => [{ _tool: 'findHotel', city, _outputPath: '†state.hotel || †state.noHotel || †state.error' }];
    expect((await runToolPlan(plan('Berlin'), { tools: [find] })).state).toEqual({ hotel: { name: 'Hotel Hund' } });
    expect((await runToolPlan(plan('Ulm'), { tools: [find] })).state).toEqual({ noHotel: { city: 'Ulm' } });
    const byIndex = recordingTool('byIndex', () => toolOutcome(1, 'second'));
    const wrong = recordingTool('wrong', () => toolOutcome('state.elsewhere', 1));
    const result = await runToolPlan(
      [
        { _tool: 'byIndex', _outputPath: '†state.a || †state.b' },
        { _tool: 'wrong', _outputPath: '†state.c || †state.d' },
      ],
      { tools: [byIndex, wrong] },
    );
    expect(result.state.b).toBe('second');
    expect(result.state.d).toEqual({ code: 'invalid_input', message: expect.stringMatching(/chose the outcome "state.elsewhere"/) });
  });

  it('stops with tool_failed naming the call when there is no error path, aborting the calls in flight', async () => {
    const state = new GraphState();
    let sawAbort = false;
    const late = deferred<string>();
    const slow = recordingTool('slow', (_args, { signal }) => {
      signal.addEventListener('abort', () => (sawAbort = true));
      return late.promise;
    });
    const quick = recordingTool('quick', () => 'ok');
    const broken = recordingTool('broken', async () => {
      await flush();
      throw new Error('disk full');
    });
    const after = recordingTool('after');
    const run = runToolPlan(
      [
        { _tool: 'slow', _outputPath: '†state.slow' },
        { _tool: 'quick', _outputPath: '†state.quick' },
        { _tool: 'broken', _outputPath: '†state.broken' },
        { _tool: 'after', x: '†state.broken' },
      ],
      { tools: [slow, quick, broken, after], state },
    );
    const error = await run.result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolCallError);
    expect(error).toMatchObject({ code: 'tool_failed', index: 2, tool: 'broken' });
    expect((error as Error).message).toMatch(/Call 2 \(broken\) failed: disk full/);
    expect(sawAbort).toBe(true);
    late.resolve('too late');
    await flush();
    expect(state.snapshot()).toEqual({ quick: 'ok' });
    expect(after.calls).toHaveLength(0);
  });

  it('checks resolved arguments against the tool schema at run time', async () => {
    const pay = defineTool({ name: 'pay', schema: z.object({ amount: z.number() }), run: ({ amount }) => amount * 2 });
    const result = await runToolPlan([{ _tool: 'pay', amount: '†input.amount', _outputPath: '†state.ok || †state.error' }], {
      tools: [pay],
      input: { amount: 'fifty' },
    });
    expect(result.state.error).toEqual({ code: 'invalid_input', message: 'The arguments of pay are invalid: amount must be a number.' });
    await expect(runToolPlan([{ _tool: 'pay', amount: '†input.amount' }], { tools: [pay], input: { amount: 'x' } })).rejects.toMatchObject({
      code: 'tool_failed',
    });
  });

  it('raises state_write_once when a path was written behind the plan’s back', async () => {
    const state = new GraphState();
    const sneaky = recordingTool('sneaky', () => {
      state.set('result', 'written elsewhere');
      return 'mine';
    });
    const error = await runToolPlan([{ _tool: 'sneaky', _outputPath: '†state.result' }], { tools: [sneaky], state }).result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StateWriteOnceError);
    expect(error).toMatchObject({ code: 'state_write_once', path: 'state.result' });
    expect(state.get('result')).toBe('written elsewhere');
  });

  it('never half-applies a fan-out', async () => {
    const state = new GraphState();
    const tool = recordingTool('tool', () => {
      state.set('b', 'taken');
      return 1;
    });
    await expect(runToolPlan([{ _tool: 'tool', _outputPath: '†state.a && †state.b' }], { tools: [tool], state })).rejects.toMatchObject({
      code: 'state_write_once',
    });
    expect(state.has('a')).toBe(false);
  });

  it('validates before anything runs', async () => {
    const tool = recordingTool('tool');
    const error = await runToolPlan([{ _tool: 'tool' }, { _tool: 'nope' }], { tools: [tool] }).result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphValidationError);
    expect(tool.calls).toHaveLength(0);
  });

  it('stops on abort: rejects at once, aborts running tools and starts nothing more', async () => {
    const controller = new AbortController();
    const hang = deferred();
    let toolSignal: AbortSignal | undefined;
    const wait = recordingTool('wait', (_args, { signal }) => {
      toolSignal = signal;
      return hang.promise;
    });
    const next = recordingTool('next');
    const run = runToolPlan(
      [
        { _tool: 'wait', _outputPath: '†state.w' },
        { _tool: 'next', w: '†state.w' },
      ],
      { tools: [wait, next], signal: controller.signal },
    ).result;
    await flush();
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
    expect(toolSignal?.aborted).toBe(true);
    hang.resolve();
    await flush();
    expect(next.calls).toHaveLength(0);

    const before = AbortSignal.abort();
    await expect(runToolPlan([{ _tool: 'next' }], { tools: [next], signal: before })).rejects.toBeInstanceOf(PlanloopError);
    expect(next.calls).toHaveLength(0);
  });

  it('lets a listener unsubscribe', async () => {
    const tool = recordingTool('tool');
    const run = runToolPlan([{ _tool: 'tool' }, { _tool: 'tool' }], { tools: [tool] });
    const seen: number[] = [];
    const off = run.on('call-end', ({ index }) => {
      seen.push(index);
      off();
    });
    await run;
    expect(seen).toEqual([0]);
  });

  it('mirrors the calls as todos of a Plan, with their progress and events', async () => {
    const plan = new Plan();
    plan.todos.createMany([{ intent: 'narrate', description: 'an old todo' }]);
    const statusesDuringFirst: string[] = [];
    const first = recordingTool('searchFlights', () => {
      statusesDuringFirst.push(...plan.todos.list().map((todo) => todo.status));
      return ['LH1'];
    });
    const second = recordingTool('bookFlight', () => {
      throw new Error('sold out');
    });
    const third = recordingTool('sendTicket');
    const planEvents: string[] = [];
    plan.on('call-end', ({ index, wrote }) => planEvents.push(`end:${index}:${wrote.join(' && ') || 'undefined'}`));
    plan.on('call-error', ({ index, handled }) => planEvents.push(`error:${index}:${handled}`));
    const updates: string[] = [];
    plan.on('plan-update', ({ source }) => updates.push(source));

    await runToolPlan(
      [
        { _tool: 'searchFlights', to: '†input.to', _outputPath: '†state.flights' },
        { _tool: 'bookFlight', flight: '†state.flights.0', _outputPath: '†state.booking || †state.bookingError' },
        { _tool: 'sendTicket', booking: '†state.booking' },
      ],
      { tools: [first, second, third], input: { to: 'Berlin' }, plan },
    );
    expect(statusesDuringFirst).toEqual(['in_progress', 'pending', 'pending']);
    expect(plan.todos.list().map(({ intent, description, status }) => [intent, description, status])).toEqual([
      ['tool', 'searchFlights → state.flights', 'completed'],
      ['tool', 'bookFlight → state.booking | state.bookingError (failed → state.bookingError)', 'completed'],
      ['tool', 'sendTicket (skipped)', 'completed'],
    ]);
    expect(planEvents).toEqual(['end:0:state.flights', 'error:1:true']);
    expect(new Set(updates)).toEqual(new Set(['graph']));
  });
});

describe('runToolPlan: the todo mirror when a run stops', () => {
  it('leaves no todo in progress after an abort or a failure stopped the calls in flight', async () => {
    for (const how of ['abort', 'failure'] as const) {
      const plan = new Plan();
      const controller = new AbortController();
      const hang = deferred();
      const wait = recordingTool('wait', () => hang.promise);
      const broken = recordingTool('broken', async () => {
        await flush();
        if (how === 'failure') throw new Error('disk full');
        return hang.promise;
      });
      const run = runToolPlan(
        [
          { _tool: 'wait', _outputPath: '†state.w' },
          { _tool: 'broken', _outputPath: '†state.b' },
        ],
        { tools: [wait, broken], plan, signal: controller.signal },
      ).result;
      await flush();
      if (how === 'abort') controller.abort();
      await run.catch(() => undefined);
      expect(plan.todos.list().map((todo) => todo.status)).not.toContain('in_progress');
      expect(plan.todos.list().map((todo) => todo.description)).toEqual(
        how === 'abort' ? ['wait → state.w (stopped)', 'broken → state.b (stopped)'] : ['wait → state.w (stopped)', 'broken → state.b (failed)'],
      );
      hang.resolve();
    }
  });
});
