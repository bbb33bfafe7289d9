import { describe, expect, it } from 'vitest';
import { GraphValidationError } from '../../src/graph/errors.js';
import { runToolPlan } from '../../src/graph/run.js';
import type { ApprovalRequest } from '../../src/graph/approval.js';
import { recordingTool } from './fixtures.js';

const plan = [
  { _tool: 'bookFlight', destination: '†input.destination', _outputPath: '†state.flight' },
  { _tool: 'bookHotel', destination: '†input.destination', _outputPath: '†state.hotel' },
];

function tools() {
  return {
    bookFlight: recordingTool('bookFlight'),
    bookHotel: recordingTool('bookHotel'),
    findPetFriendlyHotel: recordingTool('findPetFriendlyHotel'),
  };
}

describe('approval hook', () => {
  it('runs the plan when approved, after showing the calls and their dry run', async () => {
    const t = tools();
    const requests: ApprovalRequest[] = [];
    const result = await runToolPlan(plan, {
      tools: Object.values(t),
      input: { destination: 'Berlin' },
      approve: (request) => {
        requests.push(request);
        expect(t.bookFlight.calls).toHaveLength(0);
        return true;
      },
    });
    expect(requests[0]!.calls).toEqual(plan);
    expect(requests[0]!.dryRun.levels).toEqual([[0, 1]]);
    expect(Object.keys(result.state)).toEqual(['flight', 'hotel']);
    const approved = await runToolPlan(plan, { tools: Object.values(t), input: { destination: 'Paris' }, approve: async () => 'approve' as const });
    expect(approved.calls.map((call) => call.status)).toEqual(['completed', 'completed']);
  });

  it('rejects with plan_rejected and runs nothing', async () => {
    for (const decision of [false, 'reject', undefined] as const) {
      const t = tools();
      const error = await runToolPlan(plan, {
        tools: Object.values(t),
        input: { destination: 'Berlin' },
        approve: () => decision as never,
      }).result.catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'plan_rejected' });
      expect(t.bookFlight.calls).toHaveLength(0);
    }
  });

  it('runs an edited plan after validating it again', async () => {
    const t = tools();
    const edited = [plan[0]!, { _tool: 'findPetFriendlyHotel', destination: '†input.destination', _outputPath: '†state.hotel' }];
    const result = await runToolPlan(plan, { tools: Object.values(t), input: { destination: 'Berlin' }, approve: () => edited });
    expect(result.plan).toEqual(edited);
    expect(t.bookHotel.calls).toHaveLength(0);
    expect(t.findPetFriendlyHotel.calls).toEqual([{ destination: 'Berlin' }]);

    const broken = [{ _tool: 'bookFlight', destination: '†input.nowhere' }];
    const error = await runToolPlan(plan, { tools: Object.values(t), input: { destination: 'Berlin' }, approve: () => broken }).result.catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GraphValidationError);
    expect(t.bookFlight.calls).toHaveLength(1);
  });
});

describe('approval hook and abort', () => {
  it('rejects with aborted as soon as the signal aborts while the hook is still deciding, and runs nothing later', async () => {
    const t = tools();
    const controller = new AbortController();
    let decide: (decision: boolean) => void = () => {};
    const run = runToolPlan(plan, {
      tools: Object.values(t),
      input: { destination: 'Berlin' },
      signal: controller.signal,
      approve: () => new Promise<boolean>((resolve) => (decide = resolve)),
    }).result;
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    const outcome = await Promise.race([
      run.then(
        () => 'resolved',
        (error: unknown) => error,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still pending'), 200)),
    ]);
    expect(outcome).toMatchObject({ code: 'aborted' });
    decide(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(t.bookFlight.calls).toHaveLength(0);
  });
});
