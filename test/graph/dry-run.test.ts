import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { dryRunToolPlan } from '../../src/graph/dry-run.js';
import { GraphValidationError } from '../../src/graph/errors.js';
import { GraphState } from '../../src/graph/state.js';
import { defineTool } from '../../src/graph/tool.js';
import { recordingTool } from './fixtures.js';

describe('dryRunToolPlan', () => {
  it('returns the levels and the binding of every argument without running anything', async () => {
    const processPayment = recordingTool('processPayment');
    const confirmOrder = recordingTool('confirmOrder');
    const state = new GraphState({ customer: { id: 'cust_123' } });
    const dry = await dryRunToolPlan(
      [
        { _tool: 'processPayment', amount: '†input.amount', currency: 'EUR', _outputPath: '†state.receipt || †state.error' },
        { _tool: 'confirmOrder', receipt: '†state.receipt', customer: '†state.customer.id', notify: { email: '†input.email || †input.phone' } },
      ],
      { tools: [processPayment, confirmOrder], input: { amount: 50, phone: '+49 30 1234' }, state },
    );
    expect(dry.levels).toEqual([[0], [1]]);
    expect(dry.calls[0]).toEqual({
      index: 0,
      tool: 'processPayment',
      level: 0,
      dependsOn: [],
      writes: { op: 'or', paths: ['state.receipt', 'state.error'] },
      bindings: [
        { arg: 'currency', kind: 'literal', known: true, value: 'EUR' },
        { arg: 'amount', kind: 'reference', expression: '†input.amount', op: 'single', reads: ['input.amount'], from: [], known: true, value: 50 },
      ],
    });
    expect(dry.calls[1]!.bindings).toEqual([
      { arg: 'receipt', kind: 'reference', expression: '†state.receipt', op: 'single', reads: ['state.receipt'], from: [0], known: false },
      {
        arg: 'customer',
        kind: 'reference',
        expression: '†state.customer.id',
        op: 'single',
        reads: ['state.customer.id'],
        from: [],
        known: true,
        value: 'cust_123',
      },
      {
        arg: 'notify.email',
        kind: 'reference',
        expression: '†input.email || †input.phone',
        op: 'or',
        reads: ['input.email', 'input.phone'],
        from: [],
        known: true,
        value: '+49 30 1234',
      },
    ]);
    expect(processPayment.calls).toHaveLength(0);
    expect(confirmOrder.calls).toHaveLength(0);
    expect(state.snapshot()).toEqual({ customer: { id: 'cust_123' } });
  });

  it("uses a tool's own dryRun, with unknown arguments left as their references", async () => {
    let ran = false;
    const seen: unknown[] = [];
    const refund = defineTool({
      name: 'issueRefund',
      schema: z.object({ customerId: z.string(), amount: z.number() }),
      run: () => {
        ran = true;
      },
      dryRun: (args) => {
        seen.push(args);
        return `would refund ${String(args.amount)} to ${String(args.customerId)}`;
      },
    });
    const history = recordingTool('checkBillingHistory');
    const dry = await dryRunToolPlan(
      [
        { _tool: 'checkBillingHistory', customerId: '†input.customerId', _outputPath: '†state.history' },
        { _tool: 'issueRefund', customerId: '†state.history && †input.customerId', amount: '†input.amount' },
      ],
      { tools: [history, refund], input: { customerId: 'cust_123', amount: 50 } },
    );
    expect(seen).toEqual([{ customerId: '†state.history && †input.customerId', amount: 50 }]);
    expect(dry.calls[1]!.preview).toBe('would refund 50 to †state.history && †input.customerId');
    expect(dry.calls[0]!.preview).toBeUndefined();
    expect(ran).toBe(false);
    expect(history.calls).toHaveLength(0);
  });

  it('throws the validation error for an invalid plan', async () => {
    await expect(dryRunToolPlan([{ _tool: 'nope' }], { tools: [] })).rejects.toBeInstanceOf(GraphValidationError);
  });
});
