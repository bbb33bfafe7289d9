import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { AbortError, EnvelopeError, isPlanloopError, PlanloopError, StorageError, ValidationError, asStorageError } from '../src/errors.js';
import { ConflictError, EditError, PlannerOutputError, ProviderError, RefusalError, refusalOf } from '../src/model-errors.js';
import { GraphValidationError, StateWriteOnceError, ToolCallError, TurnLimitError } from '../src/graph/errors.js';
import { toAbortError } from '../src/abort.js';
import { withRetry } from '../src/llm/retry.js';

const cause = new Error('the cause');

/** One error of each class, all built the one way: `(code, message, options)`. */
function oneOfEach(): PlanloopError[] {
  return [
    new PlanloopError('no_llm', 'No model.', { cause }),
    new ValidationError('invalid_input', 'Bad todo.', { issues: [{ path: '[0].intent', message: 'must not be empty' }], cause }),
    new PlannerOutputError('planner_output_invalid', 'Bad plan.', { raw: '{', issues: [], cause }),
    new EnvelopeError('envelope_invalid', 'Bad envelope.', { raw: '{', cause }),
    new ProviderError('provider_error', 'HTTP 503.', { provider: 'p', status: 503, retryable: true, cause }),
    new RefusalError('model_refused', undefined, { refusal: 'No.', provider: 'p', cause }),
    new AbortError('timeout', undefined, { cause }),
    new ConflictError('edit_conflict', 'Edited meanwhile.', { id: 'm1', cause }),
    new EditError('edit_invalid', 'Bad edit.', { raw: 'x', provider: 'p', cause }),
    new StorageError('storage_error', 'Disk full.', { operation: 'save', reason: 'quota', cause }),
    new GraphValidationError('graph_invalid', undefined, { issues: [{ index: 0, kind: 'cycle', message: 'loops' }], cause }),
    new StateWriteOnceError('state_write_once', undefined, { path: 'state.a', detail: 'it holds 1', cause }),
    new ToolCallError('tool_failed', undefined, { index: 2, tool: 'open', cause }),
    new TurnLimitError('turn_limit', undefined, { turns: 3, state: {}, cause }),
  ];
}

describe('errors are built one way', () => {
  it('every class takes (code, message, options) with cause and its details in options', () => {
    for (const error of oneOfEach()) {
      expect(error.cause, error.name).toBe(cause);
      expect(error.message, error.name).not.toBe('');
      expect(isPlanloopError(error, error.code), error.name).toBe(true);
    }
    const [, validation, planner, envelope, provider, refusal, abort, conflict, edit, storage, graph, writeOnce, tool, limit] = oneOfEach();
    expect((validation as ValidationError).issues[0]?.path).toBe('[0].intent');
    expect(planner).toMatchObject({ code: 'planner_output_invalid', raw: '{' });
    expect(envelope).toMatchObject({ code: 'envelope_invalid', raw: '{', issues: [] });
    expect(provider).toMatchObject({ code: 'provider_error', provider: 'p', status: 503, retryable: true });
    expect(refusal).toMatchObject({
      code: 'model_refused',
      refusal: 'No.',
      text: '',
      message: expect.stringContaining('The model (p) declined to answer: No.'),
    });
    expect(abort).toMatchObject({ code: 'timeout', message: 'The operation timed out.' });
    expect(conflict).toMatchObject({ code: 'edit_conflict', id: 'm1', conflicts: [] });
    expect(edit).toMatchObject({ code: 'edit_invalid', raw: 'x', provider: 'p' });
    expect(storage).toMatchObject({ code: 'storage_error', operation: 'save', reason: 'quota' });
    expect(graph).toMatchObject({ code: 'graph_invalid', message: expect.stringContaining('call 0: loops') });
    expect(writeOnce).toMatchObject({ path: 'state.a', message: expect.stringContaining('Cannot write state.a: it holds 1.') });
    expect(tool).toMatchObject({ index: 2, tool: 'open', message: expect.stringContaining('Call 2 (open) failed: the cause.') });
    expect(limit).toMatchObject({ turns: 3, message: expect.stringContaining('after 3 turns') });
  });

  it('a message given to a class that can word its own wins', () => {
    expect(new RefusalError('model_refused', 'Declined.', { refusal: '' }).message).toBe('Declined.');
    expect(new AbortError('aborted', 'Stopped by the user.').message).toBe('Stopped by the user.');
  });
});

describe('isPlanloopError and isInstance', () => {
  it('tell planloop errors from look-alikes, by code when asked', () => {
    const error = new ProviderError('provider_error', 'HTTP 503.', { provider: 'p', retryable: true });
    expect(isPlanloopError(error)).toBe(true);
    expect(isPlanloopError(error, 'provider_error')).toBe(true);
    expect(isPlanloopError(error, 'aborted')).toBe(false);
    for (const other of [new Error('x'), { code: 'aborted', name: 'AbortError', message: 'x' }, null, undefined, 'aborted', 42]) {
      expect(isPlanloopError(other)).toBe(false);
    }
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(PlanloopError.isInstance(error)).toBe(true);
    expect(StorageError.isInstance(error)).toBe(false);
    expect(ProviderError.isInstance(new PlanloopError('provider_error', 'x'))).toBe(false);
  });

  it('a host subclass is an instance of the planloop class it extends', () => {
    class MyProviderError extends ProviderError {}
    const error = new MyProviderError('provider_error', 'Mine.', { provider: 'mine', retryable: false });
    expect(error.name).toBe('MyProviderError');
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(isPlanloopError(error, 'provider_error')).toBe(true);
  });

  describe('across realms (errors made by a planloop loaded in a vm context)', () => {
    // The same source, bundled and run in another realm: its classes are other objects, so
    // `instanceof` fails there, as it does for an error from an iframe or another copy of planloop.
    const bundle = buildSync({
      stdin: {
        contents: "export * from './src/errors.ts'; export * from './src/model-errors.ts'; export * from './src/graph/errors.ts';",
        resolveDir: fileURLToPath(new URL('..', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      format: 'iife',
      globalName: 'planloop',
      write: false,
      logLevel: 'silent',
    }).outputFiles[0]!.text;
    const realm = createContext({});
    runInContext(bundle, realm);
    const foreign = <T>(code: string): T => runInContext(code, realm) as T;

    it('isPlanloopError and XError.isInstance recognise them where instanceof does not', () => {
      const error = foreign<unknown>("new planloop.ProviderError('provider_error', 'HTTP 503.', { provider: 'far', retryable: true })");
      expect(error instanceof PlanloopError).toBe(false);
      expect(error instanceof Error).toBe(false);
      expect(isPlanloopError(error)).toBe(true);
      expect(isPlanloopError(error, 'provider_error')).toBe(true);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(PlanloopError.isInstance(error)).toBe(true);
      expect(ValidationError.isInstance(error)).toBe(false);
      expect(ToolCallError.isInstance(foreign("new planloop.ToolCallError('tool_failed', undefined, { index: 0, tool: 't', cause: 1 })"))).toBe(true);
      // And the other way round: the foreign realm's check knows this realm's errors.
      realm.local = new StorageError('storage_error', 'x', { operation: 'save' });
      expect(foreign('planloop.isPlanloopError(local, "storage_error") && planloop.StorageError.isInstance(local)')).toBe(true);
    });

    it('planloop reads them as its own: a refusal, an abort, a storage error, a retryable provider error', async () => {
      expect(refusalOf(foreign("new planloop.RefusalError('model_refused', undefined, { refusal: 'Not that.' })"))).toBe('Not that.');
      const abort = foreign<AbortError>("new planloop.AbortError('timeout')");
      expect(toAbortError(abort)).toBe(abort);
      const storage = foreign<StorageError>("new planloop.StorageError('storage_error', 'Full.', { operation: 'save', reason: 'quota' })");
      expect(asStorageError('save', storage)).toBe(storage);
      // A host provider built against another copy of planloop: its retryable error is retried.
      let calls = 0;
      const provider = withRetry(
        {
          name: 'far',
          async generate() {
            calls += 1;
            if (calls === 1) throw foreign("new planloop.ProviderError('provider_error', 'HTTP 503.', { provider: 'far', retryable: true, retryAfterMs: 0 })");
            return { text: 'ok' };
          },
        },
        { retries: 1, baseDelayMs: 0, maxDelayMs: 0 },
      );
      await expect(provider.generate({ messages: [{ role: 'user', content: 'hi' }] })).resolves.toMatchObject({ text: 'ok' });
      expect(calls).toBe(2);
    });
  });
});
