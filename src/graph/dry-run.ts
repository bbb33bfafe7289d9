import { formatPath } from '../errors.js';
import { bindSite, mapReferences, referenceSites, type PathStatus } from './call.js';
import { formatReference, readPath, type Reference } from './reference.js';
import { GraphState } from './state.js';
import { analyzeToolPlan, type ToolGraph, type ValidateToolPlanOptions } from './validate.js';

/** How one argument of a call is bound. */
export interface ArgumentBinding {
  /** Where the argument stands: `amount`, `filters.city`, `ids[1]`. */
  arg: string;
  kind: 'literal' | 'reference';
  /** The reference string as written (references only). */
  expression?: string;
  /** `single`, `or` (fallback) or `and` (gate) (references only). */
  op?: 'single' | 'or' | 'and';
  /** The paths read, without sigil: `state.flights` (references only). */
  reads?: string[];
  /** The calls that write those paths (references only). */
  from?: number[];
  /** Whether the value is known before running: literals, input values, values already in the state. */
  known: boolean;
  /** The value, when known. */
  value?: unknown;
}

/** One call of a dry run. */
export interface DryRunCall {
  index: number;
  tool: string;
  /** The level it runs in: 0 first, then each level after the ones it waits for. */
  level: number;
  dependsOn: number[];
  bindings: ArgumentBinding[];
  /** Where the result goes: `single`, `or` (alternatives) or `and` (fan-out), or null. */
  writes: { op: 'single' | 'or' | 'and'; paths: string[] } | null;
  /** What the tool's own `dryRun` returned, when it has one. */
  preview?: unknown;
}

/** What {@link dryRunToolPlan} returns. */
export interface ToolPlanDryRun {
  /** Call indices by level: the calls of one level can run at the same time. */
  levels: number[][];
  calls: DryRunCall[];
}

/**
 * Shows what a plan would do without doing it: the execution order in levels and the binding of
 * every argument. Validates first (throws `GraphValidationError`). A tool's own `dryRun` is
 * called with the arguments known so far (unknown ones stay reference strings); no `run` is.
 *
 * @example
 * ```ts
 * declare const calls: unknown[]; // the model's plan
 * declare const tools: GraphTool[];
 * const { levels, calls: preview } = await dryRunToolPlan(calls, { tools, input: { amount: 50 } });
 * // levels: [[0], [1]]; preview[0].bindings: [{ arg: 'amount', kind: 'reference', known: true, value: 50, ... }]
 * ```
 */
export async function dryRunToolPlan(calls: readonly unknown[], options: ValidateToolPlanOptions): Promise<ToolPlanDryRun> {
  const result = analyzeToolPlan(calls, options);
  if (!result.ok) throw result.error;
  const state = options.state instanceof GraphState ? options.state : new GraphState(options.state);
  return dryRunGraph(result.graph, options.input ?? {}, state);
}

/** {@link dryRunToolPlan} on an analysed graph. */
export async function dryRunGraph(graph: ToolGraph, input: Record<string, unknown>, state: GraphState): Promise<ToolPlanDryRun> {
  // Before running, a path a call will write is "waiting"; everything else is known now.
  const probe = (ref: Reference, producers: readonly number[]): PathStatus => {
    if (ref.root === 'input') return readPath(input, ref.path).found ? 'present' : 'absent';
    if (producers.length > 0) return 'waiting';
    return state.has(ref.path) ? 'present' : 'absent';
  };
  const read = (ref: Reference) => (ref.root === 'input' ? readPath(input, ref.path).value : state.get(ref.path));

  const out: DryRunCall[] = [];
  for (const call of graph.calls) {
    const bound = new Map(call.sites.map((site) => [site.argPath, { site, binding: bindSite(site, probe, read) }]));
    const bindings: ArgumentBinding[] = [];
    for (const [arg, value] of Object.entries(call.args)) {
      if (referenceSites(value).length === 0) bindings.push({ arg, kind: 'literal', known: true, value });
    }
    for (const { site, binding } of bound.values()) {
      bindings.push({
        arg: site.argPath,
        kind: 'reference',
        expression: site.text,
        op: site.expression.op,
        reads: site.expression.refs.map(formatReference),
        from: [...new Set(site.producers.flat())],
        known: binding.status === 'present',
        ...(binding.status === 'present' ? { value: binding.value } : {}),
      });
    }
    const entry: DryRunCall = {
      index: call.index,
      tool: call.tool.name,
      level: call.level,
      dependsOn: [...call.dependsOn],
      bindings,
      writes: call.output ? { op: call.output.op, paths: call.output.refs.map(formatReference) } : null,
    };
    if (call.tool.dryRun) {
      const args = mapReferences(call.args, (text, path) => {
        const binding = bound.get(formatPath(path))?.binding;
        return binding?.status === 'present' ? binding.value : text;
      }) as Record<string, unknown>;
      entry.preview = await call.tool.dryRun(args, { index: call.index });
    }
    out.push(entry);
  }
  return { levels: graph.levels.map((level) => [...level]), calls: out };
}
