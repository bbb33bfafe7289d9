import { createEnvelopeStreamParser } from '../src/envelope/stream.js';
import { AbortError } from '../src/errors.js';
import type { LLMProvider } from '../src/llm/provider.js';
import { createScriptedProvider } from '../src/llm/scripted.js';
import { runWebAgent } from '../src/loop/run-web-agent.js';
import { Plan } from '../src/plan.js';
import { median, round } from './measure.js';
import { realisticEnvelope, tourScenario } from './scenarios.js';

/** Options of {@link benchFirstAction}. */
export interface FirstActionOptions {
  /** Characters per streamed delta (about one token). Default 4. */
  chunkSize?: number;
  /** Milliseconds between deltas. Default 10 (about 100 tokens a second). */
  delayMs?: number;
  /** Streams to time per path; the median is reported. Default 5. */
  runs?: number;
  /** The envelope text to stream. Default {@link realisticEnvelope} (one id done, nothing replaced). */
  text?: string;
}

/** One path's medians, in milliseconds from the first byte. */
export interface FirstActionTiming {
  via: 'streaming parser' | 'runWebAgent';
  /**
   * First byte to the first visible action: the first narrated words (the parser's
   * `onNarrateDelta`, the loop's `onNarrateDelta`) or the first dispatched action (`onAction`,
   * the loop's `action` event), whichever comes first.
   */
  firstActionMs: number;
  /** First byte to the last byte of the response. */
  completeMs: number;
  /** firstActionMs / completeMs. */
  ratio: number;
}

/** What {@link benchFirstAction} measured. */
export interface FirstActionResult {
  chunkSize: number;
  delayMs: number;
  runs: number;
  envelopeChars: number;
  timings: FirstActionTiming[];
  /** The larger of the two ratios: the figure the target is checked against. */
  ratio: number;
  /** Where the first visible action happens, as a share of the envelope text: the ratio a perfectly even stream would give. */
  textShare: number;
  /** Where the first action's JSON ends, as a share of the text: when it would show if words did not stream. */
  firstActionClosesAt: number;
  /** Where `actions` starts, as a share of the text: the plan part comes first, so nothing can show earlier. */
  actionsStart: number;
}

interface Clock {
  firstByte: number;
  lastByte: number;
  firstAction: number;
}

/** A scripted model that notes when its first and last bytes go out. */
function timedProvider(text: string, chunkSize: number, delayMs: number, clock: Clock): LLMProvider & { stream: NonNullable<LLMProvider['stream']> } {
  const scripted = createScriptedProvider(text, { chunkSize, delayMs });
  return {
    generate: (request) => scripted.generate(request),
    async *stream(request) {
      for await (const chunk of scripted.stream(request)) {
        if (chunk.type === 'text-delta') {
          const now = performance.now();
          if (clock.firstByte < 0) clock.firstByte = now;
          clock.lastByte = now;
        }
        yield chunk;
      }
    },
  };
}

/** One stream through the streaming envelope parser alone. */
async function throughParser(text: string, chunkSize: number, delayMs: number): Promise<Clock> {
  const clock: Clock = { firstByte: -1, lastByte: -1, firstAction: -1 };
  const provider = timedProvider(text, chunkSize, delayMs, clock);
  const seen = () => {
    if (clock.firstAction < 0) clock.firstAction = performance.now();
  };
  const parser = createEnvelopeStreamParser({ onNarrateDelta: seen, onAction: seen });
  for await (const chunk of provider.stream({ messages: [{ role: 'user', content: 'next turn' }] })) {
    if (chunk.type === 'text-delta') parser.push(chunk.delta);
  }
  const result = parser.end();
  if (!result.success) throw result.error;
  return clock;
}

/** One turn of the reference loop (resuming a 4-todo plan), stopped when the turn ends. */
async function throughLoop(text: string, chunkSize: number, delayMs: number): Promise<Clock> {
  const clock: Clock = { firstByte: -1, lastByte: -1, firstAction: -1 };
  const plan = new Plan();
  plan.todos.reset(tourScenario(4).todos);
  const controller = new AbortController();
  const seen = () => {
    if (clock.firstAction < 0) clock.firstAction = performance.now();
  };
  plan.on('action', seen);
  plan.on('turn-end', () => controller.abort());
  try {
    await runWebAgent({
      plan,
      task: 'Show me the pricing page',
      llm: timedProvider(text, chunkSize, delayMs, clock),
      tools: { click: () => ({ ok: true }) },
      onNarrateDelta: seen,
      onNarrate: () => {},
      signal: controller.signal,
    });
  } catch (error) {
    if (!(error instanceof AbortError)) throw error;
  }
  return clock;
}

/**
 * Streams a realistic envelope (the compact form the prompt teaches) from the scripted provider
 * at a fixed rate and compares the time to the first visible action (the first narrated words,
 * or the first action dispatched) with the time to the complete response, both from the first
 * byte: once through the streaming envelope parser alone, once through `runWebAgent` (its
 * `onNarrateDelta` and `action` event).
 *
 * @example
 * ```ts
 * const { ratio } = await benchFirstAction({ delayMs: 0, runs: 1 });
 * ```
 */
export async function benchFirstAction(options: FirstActionOptions = {}): Promise<FirstActionResult> {
  const { chunkSize = 4, delayMs = 10, runs = 5, text = realisticEnvelope() } = options;
  const timings: FirstActionTiming[] = [];
  for (const [via, run] of [
    ['streaming parser', throughParser],
    ['runWebAgent', throughLoop],
  ] as const) {
    const firsts: number[] = [];
    const completes: number[] = [];
    for (let i = 0; i < runs; i++) {
      const clock = await run(text, chunkSize, delayMs);
      if (clock.firstAction < 0) throw new Error(`benchFirstAction: no action came out of the ${via}.`);
      firsts.push(clock.firstAction - clock.firstByte);
      completes.push(clock.lastByte - clock.firstByte);
    }
    const first = median(firsts);
    const complete = median(completes);
    timings.push({ via, firstActionMs: round(first, 1), completeMs: round(complete, 1), ratio: round(complete > 0 ? first / complete : 0, 3) });
  }

  // Where the first words show and where the first action closes in the text: feed the parser one character at a time.
  let firstVisibleAt = -1;
  let firstActionAt = -1;
  const parser = createEnvelopeStreamParser({
    onNarrateDelta: () => {
      if (firstVisibleAt < 0) firstVisibleAt = parser.text.length;
    },
    onAction: () => {
      if (firstVisibleAt < 0) firstVisibleAt = parser.text.length;
      if (firstActionAt < 0) firstActionAt = parser.text.length;
    },
  });
  for (const char of text) parser.push(char);
  parser.end();

  return {
    chunkSize,
    delayMs,
    runs,
    envelopeChars: text.length,
    timings,
    ratio: Math.max(...timings.map((timing) => timing.ratio)),
    textShare: round(firstVisibleAt / text.length, 3),
    firstActionClosesAt: round(firstActionAt / text.length, 3),
    actionsStart: round(Math.max(0, text.indexOf('"actions"')) / text.length, 3),
  };
}
