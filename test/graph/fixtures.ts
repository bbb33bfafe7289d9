import { z } from 'zod/mini';
import type { LLMRequest, LLMResult } from '../../src/llm/provider.js';
import { defineTool, type GraphTool, type ToolContext } from '../../src/graph/tool.js';

/** A promise with its resolve/reject outside. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks run. */
export const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A tool taking any object, recording every call; `impl` decides what it returns. */
export function recordingTool(
  name: string,
  impl: (args: Record<string, unknown>, context: ToolContext) => unknown = () => ({ from: name }),
): GraphTool & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  const tool = defineTool({
    name,
    description: `The ${name} tool`,
    schema: z.looseObject({}),
    run: (args, context) => {
      calls.push(args);
      return impl(args, context);
    },
  });
  return Object.assign(tool, { calls });
}

/** The inline scripted model: one answer per call (text or a function of the request), recording requests. */
export function scriptedModel(answers: Array<string | LLMResult | ((request: LLMRequest) => string)>) {
  const requests: LLMRequest[] = [];
  return {
    requests,
    async generate(request: LLMRequest): Promise<LLMResult> {
      requests.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error('the scripted model has no more answers');
      if (typeof next === 'function') return { text: next(request) };
      return typeof next === 'string' ? { text: next } : next;
    },
  };
}

/** The user message of a recorded request. */
export const userText = (request: LLMRequest | undefined) => request?.messages.find((m) => m.role === 'user')?.content ?? '';
