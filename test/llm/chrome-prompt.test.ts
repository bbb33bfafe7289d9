import { afterEach, describe, expect, it } from 'vitest';
import { AbortError, ValidationError } from '../../src/errors.js';
import { ProviderError } from '../../src/model-errors.js';
import {
  createChromePromptProvider,
  type ChromeLanguageModel,
  type ChromeLanguageModelSession,
  type ChromePromptOptions,
} from '../../src/llm/chrome-prompt.js';
import type { LLMChunk, LLMProvider, LLMRequest } from '../../src/llm/provider.js';
import { describedInPrompt } from '../../src/llm/json-instruction.js';

/** A stand-in for Chrome's `LanguageModel` global that records what it is asked. */
class FakeLanguageModel implements ChromeLanguageModel {
  availabilityValue = 'available';
  created: Array<Record<string, unknown>> = [];
  sessions: FakeSession[] = [];
  constructor(
    private readonly answer: string,
    private readonly pieces: string[] = [answer],
    private readonly pieceDelayMs = 0,
  ) {}
  async availability(): Promise<string> {
    return this.availabilityValue;
  }
  async params() {
    return { defaultTemperature: 1, defaultTopK: 3, maxTopK: 128, maxTemperature: 2 };
  }
  async create(options: Record<string, unknown> = {}): Promise<ChromeLanguageModelSession> {
    this.created.push(options);
    const session = new FakeSession(this.answer, this.pieces, this.pieceDelayMs);
    this.sessions.push(session);
    return session;
  }
}

class FakeSession implements ChromeLanguageModelSession {
  destroyed = false;
  prompts: Array<{ input: string; options: ChromePromptOptions | undefined }> = [];
  constructor(
    private readonly answer: string,
    private readonly pieces: string[],
    private readonly pieceDelayMs: number,
  ) {}
  async prompt(input: string, options?: ChromePromptOptions): Promise<string> {
    if (this.destroyed) throw new DOMException('Session destroyed', 'InvalidStateError');
    this.prompts.push({ input, options });
    return this.answer;
  }
  promptStreaming(input: string, options?: ChromePromptOptions): ReadableStream<string> {
    this.prompts.push({ input, options });
    const pieces = [...this.pieces];
    const delay = this.pieceDelayMs;
    // Like Chrome, the stream errors with an AbortError when the signal aborts.
    return new ReadableStream<string>({
      async pull(controller) {
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
        if (options?.signal?.aborted) controller.error(new DOMException('aborted', 'AbortError'));
        const piece = pieces.shift();
        if (piece === undefined) controller.close();
        else controller.enqueue(piece);
      },
    });
  }
  destroy(): void {
    this.destroyed = true;
  }
}

const request: LLMRequest = {
  messages: [
    { role: 'system', content: 'You plan tours.' },
    { role: 'user', content: 'Hello' },
    { role: 'assistant', content: 'Hi! What shall we visit?' },
    { role: 'system', content: 'Reply in English.' },
    { role: 'user', content: 'The café' },
  ],
};

async function collect(provider: LLMProvider, req: LLMRequest = request): Promise<LLMChunk[]> {
  const chunks: LLMChunk[] = [];
  for await (const c of provider.stream!(req)) chunks.push(c);
  return chunks;
}

afterEach(() => {
  delete (globalThis as { LanguageModel?: unknown }).LanguageModel;
});

describe('createChromePromptProvider', () => {
  it('throws provider_unavailable when the Prompt API is missing, only when called', async () => {
    const llm = createChromePromptProvider(); // creating it never touches the global
    const error = (await llm.generate(request).catch((x: unknown) => x)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toContain('Prompt API');
    expect(error.message).toContain('another provider');
    // it reads the global on each call, so a later polyfill or flag works
    (globalThis as { LanguageModel?: unknown }).LanguageModel = new FakeLanguageModel('ok');
    expect((await llm.generate(request)).text).toBe('ok');
  });

  it('throws provider_unavailable when the model is unavailable on the device', async () => {
    const fake = new FakeLanguageModel('x');
    fake.availabilityValue = 'unavailable';
    const error = (await collect(createChromePromptProvider({ languageModel: fake })).catch((x: unknown) => x)) as ProviderError;
    expect(error.code).toBe('provider_unavailable');
    expect(fake.created).toHaveLength(0);
  });

  it('uses a fresh session per call: system prompt first, earlier turns, then the prompt', async () => {
    const fake = new FakeLanguageModel('{"ok":true}');
    const llm = createChromePromptProvider({
      languageModel: fake,
      initialPrompts: [
        { role: 'user', content: 'Example?' },
        { role: 'assistant', content: 'Example!' },
      ],
      expectedOutputs: [{ type: 'text', languages: ['en'] }],
    });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    expect(await llm.generate({ ...request, jsonSchema: schema, maxTokens: 5 })).toEqual({ text: '{"ok":true}', finishReason: 'stop' });
    await llm.generate({ messages: [{ role: 'user', content: 'Second' }] });
    expect(fake.sessions).toHaveLength(2);
    expect(fake.sessions.every((s) => s.destroyed)).toBe(true);
    expect(fake.created[0]).toMatchObject({
      expectedOutputs: [{ type: 'text', languages: ['en'] }],
      initialPrompts: [
        { role: 'system', content: 'You plan tours.\n\nReply in English.' },
        { role: 'user', content: 'Example?' },
        { role: 'assistant', content: 'Example!' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi! What shall we visit?' },
      ],
    });
    expect(fake.sessions[0]!.prompts).toEqual([{ input: 'The café', options: { responseConstraint: schema } }]);
    // the second call carries none of the first call's history
    expect(fake.created[1]!.initialPrompts).toEqual([
      { role: 'user', content: 'Example?' },
      { role: 'assistant', content: 'Example!' },
    ]);
    expect(fake.sessions[1]!.prompts).toEqual([{ input: 'Second', options: {} }]);
  });

  it('streams chunks that are deltas', async () => {
    const fake = new FakeLanguageModel('', ['{"a"', ':', ' "é🚀"}']);
    const chunks = await collect(createChromePromptProvider({ languageModel: fake }));
    expect(chunks).toEqual([
      { type: 'text-delta', delta: '{"a"' },
      { type: 'text-delta', delta: ':' },
      { type: 'text-delta', delta: ' "é🚀"}' },
      { type: 'finish', finishReason: 'stop' },
    ]);
    expect(fake.sessions[0]!.destroyed).toBe(true);
  });

  it('streams chunks that are cumulative (older Chrome) as deltas', async () => {
    const fake = new FakeLanguageModel('', ['{"a"', '{"a":', '{"a": "é🚀"}']);
    const chunks = await collect(createChromePromptProvider({ languageModel: fake }));
    expect(chunks.filter((c) => c.type === 'text-delta').map((c) => (c as { delta: string }).delta)).toEqual(['{"a"', ':', ' "é🚀"}']);
  });

  it('passes the schema as responseConstraint when streaming too', async () => {
    const fake = new FakeLanguageModel('', ['{}']);
    await collect(createChromePromptProvider({ languageModel: fake }), { messages: [{ role: 'user', content: 'go' }], jsonSchema: { type: 'object' } });
    expect(fake.sessions[0]!.prompts[0]!.options).toEqual({ responseConstraint: { type: 'object' } });
  });

  it('asks Chrome not to add a schema the prompt already describes to the model input', async () => {
    // Before: Chrome's default put the whole schema into the input on top of the prompt that shows it.
    const fake = new FakeLanguageModel('', ['{}']);
    const schema = describedInPrompt({ type: 'object' });
    await collect(createChromePromptProvider({ languageModel: fake }), { messages: [{ role: 'user', content: 'go' }], jsonSchema: schema });
    expect(fake.sessions[0]!.prompts[0]!.options).toEqual({ responseConstraint: schema, omitResponseConstraintInput: true });
    expect(JSON.stringify(schema)).toBe('{"type":"object"}');
  });

  it('sets temperature together with topK, as Chrome requires both', async () => {
    const fake = new FakeLanguageModel('x');
    await createChromePromptProvider({ languageModel: fake }).generate({ ...request, temperature: 0.2 });
    expect(fake.created[0]).toMatchObject({ temperature: 0.2, topK: 3 });
    await createChromePromptProvider({ languageModel: fake }).generate(request);
    expect(fake.created[1]).not.toHaveProperty('temperature');
  });

  it('honours an abort in the middle of a stream and destroys the session', async () => {
    const fake = new FakeLanguageModel('', ['one', ' two', ' three'], 5);
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of createChromePromptProvider({ languageModel: fake }).stream!({ ...request, signal: controller.signal })) {
        if (c.type === 'text-delta') {
          seen.push(c.delta);
          controller.abort();
        }
      }
    })().catch((x: unknown) => x);
    expect(seen).toEqual(['one']);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).code).toBe('aborted');
    expect(fake.sessions[0]!.destroyed).toBe(true);
  });

  it('passes the signal to create and prompt, and maps an abort there', async () => {
    const controller = new AbortController();
    const fake: ChromeLanguageModel = {
      create: async (options) => {
        expect(options?.signal).toBe(controller.signal);
        return {
          prompt: (_input, options) =>
            new Promise((_resolve, reject) => {
              options?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
            }),
          promptStreaming: () => new ReadableStream(),
          destroy: () => undefined,
        };
      },
    };
    const pending = createChromePromptProvider({ languageModel: fake }).generate({ ...request, signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect(((await pending.catch((x: unknown) => x)) as AbortError).code).toBe('aborted');
  });

  it('maps Prompt API failures to ProviderErrors with a hint', async () => {
    const fake: ChromeLanguageModel = {
      create: async () => {
        throw new DOMException('Requires a user gesture when availability is "downloadable"', 'NotAllowedError');
      },
    };
    const error = (await createChromePromptProvider({ languageModel: fake })
      .generate(request)
      .catch((x: unknown) => x)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.code).toBe('provider_unavailable');
    expect(error.message).toContain('user gesture');
  });

  it('rejects a request whose last message is not the user’s', async () => {
    const error = await createChromePromptProvider({ languageModel: new FakeLanguageModel('x') })
      .generate({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      })
      .catch((x: unknown) => x);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toBe('messages[1].role');
  });
});
