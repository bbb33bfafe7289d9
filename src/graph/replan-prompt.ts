import { toJSONSchema, type z } from 'zod/mini';
import type { CallReport } from './run.js';
import type { GraphTool, ToolCall } from './tool.js';

/** The system prompt of the replanning loop: the answer format and the reference rules. */
export const REPLAN_SYSTEM_PROMPT = `You are the planner of a tool-using agent. Each turn you see the tools, the input, the state so far and your previous plan, and you answer with the calls still to run.

Answer with one JSON object and nothing else:
{"calls": [ ...tool calls... ], "output": null}

A tool call is an object: "_tool" is the tool's name, "_outputPath" (optional) is where its result is stored, every other key is an argument.
Values come from references: "†input.customerId" reads the input, "†state.flights.0.price" reads the state. "$input.x" and "$state.x" mean the same.
- In an argument, "†state.a || †state.b" passes the first that exists; "†state.a && †state.b" waits for both and passes the last.
- In "_outputPath", "†state.receipt || †state.error" stores a result in the first path and the error in the last when the tool fails; "†state.a && †state.b" stores the result in both.
Calls run as soon as what they read exists, independent calls at the same time, so order the data flow with references, not with list order.
The state is write-once: never store into a path that already holds a value; choose a new name.

Each turn, list only the calls that still need to run; calls that already ran are done. When a call failed, plan how to handle the error. When the task is done, put the final answer in "output"; until then "output" is null. With nothing left to do, answer an empty "calls" list.`;

/** What the turn message shows the model. */
export interface ReplanContext {
  tools: readonly GraphTool[];
  input: Record<string, unknown>;
  state: Record<string, unknown>;
  stateSchema?: z.core.$ZodType | Record<string, unknown>;
  outputSchema?: z.core.$ZodType;
  previousCalls: readonly ToolCall[] | null;
  lastResults: readonly CallReport[];
  turn: number;
  maxTurns: number;
}

/**
 * The user message of one replanning turn: tools, input, state (or its blueprint), previous plan
 * and what the last calls did.
 *
 * @example
 * ```ts
 * declare const context: ReplanContext;
 * const messages = [{ role: 'system', content: REPLAN_SYSTEM_PROMPT }, { role: 'user', content: replanTurnMessage(context) }];
 * ```
 */
export function replanTurnMessage(context: ReplanContext): string {
  const parts = [`Turn ${context.turn} of at most ${context.maxTurns}.`, `Tools:\n${context.tools.map(describeTool).join('\n')}`];
  parts.push(`Input:\n${toJson(context.input)}`);
  const empty = Object.keys(context.state).length === 0;
  parts.push(`State:\n${empty ? '(empty)' : toJson(context.state)}`);
  if (context.stateSchema) {
    parts.push(`State blueprint (JSON Schema): store results at these paths, with these names:\n${JSON.stringify(toSchema(context.stateSchema))}`);
  }
  if (context.previousCalls) {
    parts.push(`Previous plan:\n${context.previousCalls.length === 0 ? '(no calls)' : context.previousCalls.map((call) => toJson(call)).join('\n')}`);
  }
  if (context.lastResults.length > 0) {
    parts.push(`What the previous plan's calls did:\n${context.lastResults.map(describeResult).join('\n')}`);
  }
  if (context.outputSchema) parts.push(`"output", when you give it, must match (JSON Schema):\n${JSON.stringify(toSchema(context.outputSchema))}`);
  return parts.join('\n\n');
}

/**
 * One line per tool: `- searchFlights(to: string, date?: string) — Finds flights`.
 *
 * @example
 * ```ts
 * import { z } from 'zod/mini';
 * describeTool(defineTool({ name: 'detectLanguage', schema: z.object({ text: z.string() }), run: ({ text }) => text })); // '- detectLanguage(text: string)'
 * ```
 */
export function describeTool(tool: GraphTool): string {
  const schema = toSchema(tool.schema) as JsonSchema;
  const required = new Set(schema.required ?? []);
  const args = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => `${name}${required.has(name) ? '' : '?'}: ${typeName(property)}${property.description ? ` /* ${property.description} */` : ''}`,
  );
  return `- ${tool.name}(${args.join(', ')})${tool.description ? ` — ${tool.description}` : ''}`;
}

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
}

function typeName(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return union.map(typeName).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return `${schema.items ? typeName(schema.items) : 'any'}[]`;
  if (schema.type === 'object' && schema.properties) {
    const required = new Set(schema.required ?? []);
    return `{ ${Object.entries(schema.properties)
      .map(([key, value]) => `${key}${required.has(key) ? '' : '?'}: ${typeName(value)}`)
      .join('; ')} }`;
  }
  if (schema.type === 'integer') return 'number';
  return schema.type ?? 'any';
}

/** A zod schema as JSON Schema (what cannot be represented becomes "any"); plain JSON Schema as is. */
export function toSchema(schema: z.core.$ZodType | Record<string, unknown>): Record<string, unknown> {
  if (!('_zod' in schema)) return schema;
  const { $schema: _ignored, ...rest } = toJSONSchema(schema as z.core.$ZodType, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  return rest;
}

function describeResult(report: CallReport): string {
  const head = `- call ${report.index} ${report.tool}: ${report.status}`;
  if (report.status === 'skipped') return `${head} (${report.reason})`;
  const where = report.wrote.length > 0 ? ` → ${report.wrote.join(', ')}` : '';
  const value = report.status === 'failed' ? report.error : report.result;
  const detail = value instanceof Error ? value.message : clip(toJson(value) ?? 'undefined', 1000);
  return `${head}${where}: ${detail}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * JSON for the prompt that survives what tools return: a value seen again on the path from the
 * root (a parent pointer, `self`) is written as "[Circular]" instead of throwing.
 */
function toJson(value: unknown): string {
  const ancestors: object[] = [];
  return JSON.stringify(value, function (this: unknown, _key, current: unknown) {
    if (typeof current !== 'object' || current === null) return current;
    while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
    if (ancestors.includes(current)) return '[Circular]';
    ancestors.push(current);
    return current;
  });
}
