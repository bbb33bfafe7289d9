/**
 * The model contract every adapter implements. Models answer with JSON as text (not tool calls),
 * which every backend can do, small in-browser models included.
 */

/** One chat message. */
export interface LLMMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One model call. */
export interface LLMRequest {
  messages: LLMMessage[];
  /** The JSON shape wanted; each adapter enforces it where its backend can (json_schema, responseConstraint). */
  jsonSchema?: Record<string, unknown>;
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

/**
 * Why the model stopped. `length` means it hit its token limit and the text is cut off. `refusal`
 * means the model (or the provider's safety system) declined: Anthropic's `stop_reason: "refusal"`,
 * OpenAI's `refusal` answer or `content_filter` finish, the AI SDK's `content-filter`; the model's
 * words are in `refusal` when the API gives them apart from the text. `callModel` (and so
 * `makeTodos`, the turn loop and `editWithInstruction`) turns it into a `RefusalError`.
 */
export type FinishReason = 'stop' | 'length' | 'refusal' | 'abort' | 'error' | 'other';

/** Token counts as the backend reported them. */
export interface LLMUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** A whole answer. */
export interface LLMResult {
  text: string;
  finishReason?: FinishReason;
  /** With finishReason `refusal`: the model's words declining, when the API sends them apart from `text`. */
  refusal?: string;
  usage?: LLMUsage;
}

/** One piece of a streamed answer: text deltas, then one `finish`. */
export type LLMChunk = { type: 'text-delta'; delta: string } | { type: 'finish'; finishReason: FinishReason; refusal?: string; usage?: LLMUsage };

/**
 * A model backend. `stream` is optional: planloop falls back to `generate`.
 *
 * @example
 * ```ts
 * const echo: LLMProvider = { generate: async ({ messages }) => ({ text: messages.at(-1)?.content ?? '' }) };
 * ```
 */
export interface LLMProvider {
  /** A short name errors and events report (`openai-compatible:gpt-4o-mini`). Optional. */
  readonly name?: string;
  generate(request: LLMRequest): Promise<LLMResult>;
  stream?(request: LLMRequest): AsyncIterable<LLMChunk>;
}

/** The roles planloop asks for: `plan` (makeTodos), `turn` (each loop turn), `edit` (editWithInstruction). */
export type LLMRole = 'default' | 'plan' | 'turn' | 'edit' | (string & {});

/** Picks a provider per role. */
export interface LLMRouter {
  route(role: string): LLMProvider;
}

/** A provider or a router: what `new Plan({ llm })` and the loop accept. */
export type LLMSource = LLMProvider | LLMRouter;

/** The providers of a router, by role; `default` serves every role without its own. */
export interface LLMRouterConfig {
  default: LLMProvider;
  plan?: LLMProvider;
  turn?: LLMProvider;
  edit?: LLMProvider;
  [role: string]: LLMProvider | undefined;
}

/**
 * Routes roles to providers, falling back to `default`.
 *
 * @example
 * ```ts
 * declare const small: LLMProvider, large: LLMProvider;
 * const llm = createLLMRouter({ default: small, plan: large });
 * new Plan({ llm }); // makeTodos uses `large`, the turns and edits use `small`
 * ```
 */
export function createLLMRouter(config: LLMRouterConfig): LLMRouter {
  if (!isProvider(config.default)) {
    throw new TypeError('createLLMRouter needs a `default` provider (an object with a generate() method).');
  }
  return {
    route(role: string): LLMProvider {
      const own = Object.hasOwn(config, role) ? config[role] : undefined;
      return own ?? config.default;
    },
  };
}

/** Whether `value` is an {@link LLMProvider} (has `generate`). */
export function isProvider(value: unknown): value is LLMProvider {
  return typeof (value as LLMProvider | null)?.generate === 'function';
}

/**
 * The provider for `role`: a router's choice, or the provider itself.
 *
 * @example
 * ```ts
 * const provider = resolveProvider(llm, 'plan'); // the router's `plan` provider, or `llm` itself
 * ```
 */
export function resolveProvider(source: LLMSource, role: LLMRole): LLMProvider {
  if (isProvider(source)) return source;
  return source.route(role);
}
