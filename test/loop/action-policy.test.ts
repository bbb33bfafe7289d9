import { describe, expect, it } from 'vitest';
import { askApproval, needsApproval, readApprovalAnswer, type ApprovalRequest } from '../../src/loop/action-policy.js';

const REQUEST: ApprovalRequest = { kind: 'action', tool: 'submit', args: {}, risk: 'irreversible', detail: 'submit {}' };

// The approval level in force and the tools' risks are read with the run's options: test/loop/run-options.test.ts.
describe('needsApproval', () => {
  it('asks from the level on, never at none', () => {
    const table = (['read', 'write', 'irreversible', 'none'] as const).map((level) =>
      (['read', 'write', 'irreversible'] as const).map((risk) => needsApproval(risk, level)),
    );
    expect(table).toEqual([
      [true, true, true],
      [false, true, true],
      [false, false, true],
      [false, false, false],
    ]);
  });
});

describe('readApprovalAnswer', () => {
  it('takes only a clear yes as a yes', () => {
    expect(readApprovalAnswer(true)).toEqual({ approved: true });
    expect(readApprovalAnswer({ approved: true })).toEqual({ approved: true });
    for (const unclear of ['yes', 'true', 1, {}, { approved: 'true' }, { approved: 1 }, null, undefined, [true]]) {
      expect(readApprovalAnswer(unclear), JSON.stringify(unclear)).toEqual({ approved: false, reason: 'the approval hook gave no clear yes' });
    }
    expect(readApprovalAnswer(false)).toEqual({ approved: false, reason: 'the user declined' });
    expect(readApprovalAnswer({ approved: false, reason: '  Not with\nmy card ' })).toEqual({ approved: false, reason: 'the user declined: Not with my card' });
  });
});

describe('askApproval', () => {
  it('reads a throw, a rejection and an unclear answer as a no with a reason', async () => {
    const thrown = await askApproval(
      () => {
        throw new Error('panel gone');
      },
      REQUEST,
      { timeoutMs: 0 },
    );
    expect(thrown).toEqual({ approved: false, reason: 'the approval hook failed (panel gone)' });
    const rejected = await askApproval(() => Promise.reject(new Error('closed')), REQUEST, { timeoutMs: 0 });
    expect(rejected).toEqual({ approved: false, reason: 'the approval hook failed (closed)' });
    const unclear = await askApproval(() => 'sure' as never, REQUEST, { timeoutMs: 0 });
    expect(unclear.approved).toBe(false);
  });

  it("says no when the hook stays silent past the timeout, and aborts the hook's signal", async () => {
    let seen: AbortSignal | undefined;
    const verdict = await askApproval(
      (_request, { signal }) => {
        seen = signal;
        return new Promise<boolean>(() => {});
      },
      REQUEST,
      { timeoutMs: 20 },
    );
    expect(verdict).toEqual({ approved: false, reason: 'no answer within 20 ms' });
    expect(seen?.aborted).toBe(true);
  });

  it("clears its timer once the hook answers (no late abort of the hook's signal)", async () => {
    let seen: AbortSignal | undefined;
    const verdict = await askApproval(
      (_request, { signal }) => {
        seen = signal;
        return true;
      },
      REQUEST,
      { timeoutMs: 30 },
    );
    expect(verdict).toEqual({ approved: true });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(seen?.aborted).toBe(false);
  });

  it('says no when the run stops while the user decides, and tells the hook through its signal', async () => {
    const run = new AbortController();
    let seen: AbortSignal | undefined;
    const pending = askApproval(
      (_request, { signal }) => {
        seen = signal;
        return new Promise<boolean>(() => {});
      },
      REQUEST,
      { timeoutMs: 0, signal: run.signal },
    );
    await Promise.resolve();
    run.abort();
    expect(await pending).toEqual({ approved: false, reason: 'the run was stopped' });
    expect(seen?.aborted).toBe(true);
  });

  it('hands the hook the request as it is', async () => {
    const asked: ApprovalRequest[] = [];
    await askApproval(
      (request) => {
        asked.push(request);
        return { approved: true };
      },
      REQUEST,
      { timeoutMs: 0 },
    );
    expect(asked).toEqual([REQUEST]);
  });
});
