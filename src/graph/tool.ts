import type { z } from 'zod/mini';

/**
 * One call in a tool-call plan: `_tool` names the tool, `_outputPath` (optional) says where its
 * result goes, every other key is an argument.
 *
 * Arguments are literals or references (see `reference.ts`), also nested inside arrays and
 * objects: `{ "ids": ["†state.first", 7] }` passes the resolved value in place. In an argument:
 * - `†state.a` waits until `state.a` exists;
 * - `†state.a || †input.b` is a fallback: the first path that exists (it waits while an earlier
 *   path may still be written, so the choice does not depend on timing);
 * - `†state.a && †state.b` is a gate: waits until every path exists, then passes the last.
 * A path "exists" when it holds any value other than `undefined` (`null` counts).
 *
 * In `_outputPath` (state paths only):
 * - `†state.x`: the tool's result is written there;
 * - `†state.ok || †state.failed`: alternatives. A returned value goes to the first; a thrown
 *   error goes to the last (as `{ message, code? }`); a tool picks any alternative by returning
 *   {@link toolOutcome}. Only the chosen path is written, so calls reading the others are skipped;
 * - `†state.a && †state.b`: fan-out, the same result goes to every path.
 * A call without `_outputPath` runs for its effect; its result is only reported.
 *
 * @example
 * ```ts
 * const call: ToolCall = { _tool: 'processPayment', amount: '†input.amount', _outputPath: '†state.receipt || †state.error' };
 * ```
 */
export interface ToolCall {
  _tool: string;
  _outputPath?: string;
  [argument: string]: unknown;
}

/** What a running tool receives besides its arguments. */
export interface ToolContext {
  /** Aborted when the run is aborted or stops on another call's failure. */
  signal: AbortSignal;
  /** The call's index in the plan. */
  index: number;
}

/**
 * A tool a graph can call: a name, a zod schema for its arguments (`zod/mini` or classic), and
 * `run`. `dryRun`, when present, previews a call without side effects (arguments not known
 * before running are passed as their reference strings).
 *
 * @example
 * ```ts
 * import { z } from 'zod/mini';
 * declare const api: { flights(to: string): Promise<unknown[]> };
 * const searchFlights = defineTool({
 *   name: 'searchFlights',
 *   description: 'Finds flights to a city',
 *   schema: z.object({ to: z.string() }),
 *   run: async ({ to }) => api.flights(to),
 * });
 * ```
 */
export interface GraphTool<Schema extends z.core.$ZodType = z.core.$ZodType> {
  name: string;
  description?: string;
  schema: Schema;
  run(args: z.output<Schema>, context: ToolContext): unknown;
  dryRun?(args: Record<string, unknown>, context: { index: number }): unknown;
}

/**
 * Declares a tool with its argument types inferred from the schema.
 *
 * @example
 * ```ts
 * import { z } from 'zod/mini';
 * declare function guess(text: string): string;
 * const detectLanguage = defineTool({ name: 'detectLanguage', schema: z.object({ text: z.string() }), run: ({ text }) => guess(text) });
 * ```
 */
export function defineTool<Schema extends z.core.$ZodType>(tool: GraphTool<Schema>): GraphTool<Schema> {
  return tool;
}

const OUTCOME = Symbol.for('planloop.tool-outcome');

/** The marker {@link toolOutcome} returns. */
export interface ToolOutcome {
  readonly [OUTCOME]: true;
  readonly alternative: number | string;
  readonly value: unknown;
}

/**
 * Lets a tool choose which `_outputPath` alternative receives its value: an index (0-based) or a
 * path (`'state.notFound'`, `'†state.notFound'` or `'$state.notFound'`). Naming a path the call
 * does not declare fails the call.
 *
 * @example
 * ```ts
 * import { z } from 'zod/mini';
 * declare function find(city: string): Promise<object | undefined>;
 * // the call: "_outputPath": "†state.hotel || †state.noHotel || †state.error"
 * const findHotel = defineTool({
 *   name: 'findHotel',
 *   schema: z.object({ city: z.string() }),
 *   run: async ({ city }) => { const hotel = await find(city); return hotel ?? toolOutcome('state.noHotel', { city }); },
 * });
 * ```
 */
export function toolOutcome(alternative: number | string, value: unknown): ToolOutcome {
  return { [OUTCOME]: true, alternative, value };
}

/**
 * Whether `value` came from {@link toolOutcome}.
 *
 * @example
 * ```ts
 * isToolOutcome(toolOutcome('state.error', { code: 'declined' })); // true
 * ```
 */
export function isToolOutcome(value: unknown): value is ToolOutcome {
  return typeof value === 'object' && value !== null && (value as Partial<ToolOutcome>)[OUTCOME] === true;
}
