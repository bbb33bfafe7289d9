/*
 * What a backend that cannot enforce a JSON Schema (Anthropic's Messages API, OpenAI-compatible
 * servers in `json_object` mode) is told about the shape instead, in as few tokens as stay
 * faithful: nothing beyond "JSON only" when the prompt already describes the shape, else the
 * schema as a one-line type, else (keywords a type cannot say) the schema itself.
 */

// Like the Vercel AI SDK's `Symbol.for('vercel.ai.schema')`: a mark on the schema object that
// JSON never carries (symbol keys are not serialized), so no backend ever sees it.
const DESCRIBED_IN_PROMPT = Symbol.for('planloop.schemaDescribedInPrompt');

/**
 * A copy of `schema` marked as described by the prompt it is sent with (the prompt shows the
 * shape, by example or in words). Backends that enforce schemas still get it whole; those that
 * cannot are only told to answer with that JSON, and Chrome's Prompt API is asked not to add it to
 * the model's input. The mark is a symbol key: serialized, the copy is the schema.
 *
 * @example
 * ```ts
 * const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
 * await provider.generate({ messages: [{ role: 'system', content: 'Reply with {"ok": true} or {"ok": false}.' }, { role: 'user', content: task }], jsonSchema: describedInPrompt(schema) });
 * ```
 */
export function describedInPrompt(schema: Record<string, unknown>): Record<string, unknown> {
  return Object.defineProperty({ ...schema }, DESCRIBED_IN_PROMPT, { value: true });
}

/**
 * Whether `schema` was marked by {@link describedInPrompt}.
 *
 * @example
 * ```ts
 * const promptOptions: ChromePromptOptions = {};
 * if (isDescribedInPrompt(request.jsonSchema)) promptOptions.omitResponseConstraintInput = true;
 * ```
 */
export function isDescribedInPrompt(schema: Record<string, unknown> | undefined): boolean {
  return schema !== undefined && (schema as { [DESCRIBED_IN_PROMPT]?: unknown })[DESCRIBED_IN_PROMPT] === true;
}

/**
 * The instruction planloop adds to the system prompt when a backend cannot enforce a JSON schema
 * itself (Anthropic's Messages API, OpenAI-compatible servers in `json_object` mode): one short
 * line when the prompt describes the shape already ({@link describedInPrompt}); else the schema as
 * a type (`{todo:string,last?:boolean,…}`); else, for keywords a type cannot say (`minItems`,
 * `pattern`, descriptions, …), the JSON Schema itself. It always says "JSON", which OpenAI's
 * `json_object` mode requires of the messages.
 *
 * @example
 * ```ts
 * jsonInstruction({ type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] });
 * // 'Reply with one JSON object and nothing else (no prose, no code fences), of this type: {ok:boolean}'
 * ```
 */
export function jsonInstruction(schema: Record<string, unknown>): string {
  if (isDescribedInPrompt(schema)) return 'Reply with the JSON object described above and nothing else.';
  const type = typeOf(schema);
  if (type !== undefined) return `Reply with one JSON object and nothing else (no prose, no code fences), of this type: ${type}`;
  return `Reply with a single JSON object and nothing else (no prose, no Markdown code fences). It must follow this JSON Schema:\n${JSON.stringify(schema)}`;
}

/** The keywords {@link typeOf} renders; any other one means the type would say less than the schema. */
const RENDERED = new Set(['type', 'properties', 'required', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'additionalProperties', 'title']);

/** A JSON Schema as a TypeScript-like type, or `undefined` when a type cannot say all it says. */
function typeOf(schema: unknown): string | undefined {
  if (schema === true || (isPlainObject(schema) && Object.keys(schema).length === 0)) return 'any';
  if (!isPlainObject(schema) || Object.keys(schema).some((key) => !RENDERED.has(key))) return undefined;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return undefined;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join('|');
  const union = schema.anyOf ?? schema.oneOf;
  if (union !== undefined) return Array.isArray(union) ? join(union.map(typeOf)) : undefined;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return join(types.map((type) => (typeof type === 'string' ? typeOfKind(type, schema) : undefined)));
}

function typeOfKind(kind: string, schema: Record<string, unknown>): string | undefined {
  if (kind === 'array') {
    if (schema.items === undefined) return 'any[]';
    const item = typeOf(schema.items);
    return item === undefined ? undefined : isUnion(item) ? `(${item})[]` : `${item}[]`;
  }
  if (kind !== 'object') return ['string', 'number', 'integer', 'boolean', 'null'].includes(kind) ? kind : undefined;
  const properties = schema.properties ?? (schema.required === undefined ? undefined : {});
  if (properties === undefined) return 'object';
  if (!isPlainObject(properties)) return undefined;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  if ([...required].some((key) => typeof key !== 'string' || !Object.hasOwn(properties, key))) return undefined;
  const members = Object.entries(properties).map(([key, value]) => {
    const type = typeOf(value);
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
    return type === undefined ? undefined : `${name}${required.has(key) ? '' : '?'}:${type}`;
  });
  return members.some((member) => member === undefined) ? undefined : `{${members.join(',')}}`;
}

/** Whether a rendered type is a union at its top level (`a|b`, not `{k:a|b}`). */
function isUnion(type: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < type.length; i++) {
    const char = type[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === '{' || char === '[' || char === '(') depth++;
    else if (char === '}' || char === ']' || char === ')') depth--;
    else if (char === '|' && depth === 0) return true;
  }
  return false;
}

function join(parts: Array<string | undefined>): string | undefined {
  return parts.length === 0 || parts.some((part) => part === undefined) ? undefined : parts.join('|');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
