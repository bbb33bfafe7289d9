/**
 * The instruction planloop adds to the system prompt when a backend cannot enforce a JSON schema
 * itself (Anthropic's Messages API, OpenAI-compatible servers in `json_object` mode).
 *
 * @example
 * ```ts
 * const system = [base, jsonInstruction(schema)].join('\n\n');
 * ```
 */
export function jsonInstruction(schema: Record<string, unknown>): string {
  return (
    'Reply with a single JSON object and nothing else (no prose, no Markdown code fences). ' +
    `It must follow this JSON Schema:\n${JSON.stringify(schema)}`
  );
}
