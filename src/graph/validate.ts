import { safeParse } from 'zod/mini';
import { formatPath } from '../errors.js';
import { describeIssue } from '../validation.js';
import { argumentsOf, isPlainObject, referenceSites } from './call.js';
import { GraphValidationError, notAListIssue, type GraphIssue, type GraphIssueKind } from './errors.js';
import { formatReference, isReferenceString, parseReferenceExpression, pathsOverlap, readPath, type Reference, type ReferenceExpression } from './reference.js';
import { GraphState } from './state.js';
import type { GraphTool, ToolCall } from './tool.js';

/** What validation checks a plan against. */
export interface ValidateToolPlanOptions {
  /** The registered tools. */
  tools: readonly GraphTool[];
  /** The input object; when given, every `†input.*` reference must exist in it. */
  input?: Record<string, unknown>;
  /** Values already in the state (an earlier run or turn): readable, and not writable again. */
  state?: GraphState | Record<string, unknown>;
}

/** A reference string inside a call's arguments, parsed, with the calls that can write each path. */
export interface AnalyzedSite {
  /** Where it stands in the arguments: `['filters', 'city']`. */
  path: readonly (string | number)[];
  /** The same, formatted: `filters.city`. */
  argPath: string;
  text: string;
  expression: ReferenceExpression;
  /** For each reference, the indices of the calls whose `_outputPath` overlaps it. */
  producers: readonly (readonly number[])[];
}

/** A validated call. */
export interface AnalyzedCall {
  index: number;
  call: ToolCall;
  tool: GraphTool;
  args: Record<string, unknown>;
  sites: readonly AnalyzedSite[];
  output: ReferenceExpression | null;
  /** Indices of the calls this call waits for. */
  dependsOn: readonly number[];
  /** 0 for calls that wait for nothing, else one more than the highest level they wait for. */
  level: number;
}

/** A validated plan: its calls and the levels they run in. */
export interface ToolGraph {
  calls: readonly AnalyzedCall[];
  levels: readonly (readonly number[])[];
}

/** The result of {@link validateToolPlan}. */
export type ToolPlanValidation =
  | { ok: true; levels: readonly (readonly number[])[] }
  | { ok: false; issues: readonly GraphIssue[]; error: GraphValidationError };

/**
 * Checks a tool-call plan before anything runs and reports every problem at once, each with its
 * call index: malformed calls, unknown tools, literal arguments failing the tool's schema
 * (arguments holding references are checked when they are resolved), malformed or unsafe
 * references, references that no input value, state value or call in the plan can satisfy,
 * cycles, and two calls writing the same or overlapping paths (alternatives of one call may share
 * nothing with other calls either, but are exclusive among themselves).
 *
 * "A producer" is any call of the plan, whatever its position: order is the cycle check's job,
 * so a plan may list a consumer before its producer.
 *
 * @example
 * ```ts
 * declare const calls: unknown[]; // the model's plan
 * declare const tools: GraphTool[];
 * const result = validateToolPlan(calls, { tools, input: { amount: 50 } });
 * if (!result.ok) for (const issue of result.issues) console.log(issue.index, issue.message);
 * ```
 */
export function validateToolPlan(calls: readonly unknown[], options: ValidateToolPlanOptions): ToolPlanValidation {
  const result = analyzeToolPlan(calls, options);
  return result.ok ? { ok: true, levels: result.graph.levels } : { ok: false, issues: result.error.issues, error: result.error };
}

/** {@link validateToolPlan} returning the analysed graph the runner and the dry run use. */
export function analyzeToolPlan(
  calls: readonly unknown[],
  options: ValidateToolPlanOptions,
): { ok: true; graph: ToolGraph } | { ok: false; error: GraphValidationError } {
  if (!Array.isArray(calls)) return { ok: false, error: new GraphValidationError('graph_invalid', undefined, { issues: [notAListIssue(calls)] }) };
  const issues: GraphIssue[] = [];
  const add = (index: number, kind: GraphIssueKind, message: string, path?: string) => issues.push({ index, kind, message, ...(path ? { path } : {}) });
  const tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  const state = options.state instanceof GraphState ? options.state : new GraphState(options.state);

  // 1. Each call on its own.
  const parsed = calls.map((raw, index) => {
    if (!isPlainObject(raw) || typeof raw._tool !== 'string' || raw._tool === '') {
      add(index, 'malformed_call', 'must be an object with a "_tool" string naming a tool');
      return null;
    }
    const tool = tools.get(raw._tool);
    if (!tool) add(index, 'unknown_tool', `unknown tool "${raw._tool}"; the tools are: ${[...tools.keys()].join(', ') || '(none)'}`);
    const misspelt = new Set<string>();
    for (const key of Object.keys(raw)) {
      // A tool may well take an argument called `outputPath`: only a key it does not declare is a misspelling.
      const near = declaresKey(tool, key) ? null : nearMiss(key);
      if (near) add(index, 'malformed_call', `"${key}" is not a call key; write "${near}"`, key);
      if (near) misspelt.add(key);
    }
    const output = parseOutput(raw._outputPath, (kind, message) => add(index, kind, message, '_outputPath'));
    const args = argumentsOf(raw);
    const sitePaths: (readonly (string | number)[])[] = [];
    const sites: Omit<AnalyzedSite, 'producers'>[] = [];
    for (const site of referenceSites(args).filter((site) => !misspelt.has(String(site.path[0])))) {
      const argPath = formatPath(site.path);
      sitePaths.push(site.path);
      const result = parseReferenceExpression(site.text);
      if (result.ok) sites.push({ ...site, argPath, expression: result.expression });
      else add(index, result.unsafe ? 'unsafe_path' : 'malformed_reference', result.message, argPath);
    }
    if (tool) {
      for (const issue of staticSchemaIssues(tool, args, sitePaths)) add(index, 'invalid_args', issue.message, issue.path);
    }
    return { index, call: raw as ToolCall, tool, args, sites, output };
  });

  // 2. Who writes what.
  const writes = parsed.flatMap((call) => (call?.output?.refs ?? []).map((ref) => ({ index: call!.index, ref })));
  for (const [i, a] of writes.entries()) {
    if (!state.canWrite(a.ref.path)) {
      add(
        a.index,
        'state_write_once',
        `writes ${formatReference(a.ref)}, which already holds a value; state is write-once, so write to a new path`,
        '_outputPath',
      );
    }
    for (const b of writes.slice(0, i)) {
      if (a.index === b.index || !pathsOverlap(a.ref.path, b.ref.path)) continue;
      const where = a.ref.path.length === b.ref.path.length ? '' : ` (${formatReference(a.ref)} and ${formatReference(b.ref)} overlap)`;
      add(
        a.index,
        'duplicate_output',
        `writes ${formatReference(a.ref)}, which call ${b.index} also writes${where}; give each call its own path`,
        '_outputPath',
      );
    }
  }
  const producersOf = (ref: Reference) =>
    ref.root === 'state' ? [...new Set(writes.filter((w) => pathsOverlap(w.ref.path, ref.path)).map((w) => w.index))] : [];
  const available = (ref: Reference) =>
    ref.root === 'input' ? options.input === undefined || readPath(options.input, ref.path).found : state.has(ref.path) || producersOf(ref).length > 0;

  // 3. Can every reference be satisfied?
  const analyzed = parsed.map((call) => {
    if (!call) return null;
    const sites = call.sites.map((site) => ({ ...site, producers: site.expression.refs.map(producersOf) }));
    for (const site of sites) {
      const missing = site.expression.refs.filter((ref) => !available(ref));
      const unusable = site.expression.op === 'or' ? missing.length === site.expression.refs.length : missing.length > 0;
      if (unusable) add(call.index, 'unresolvable_reference', describeMissing(site.expression.op, missing, options.input, writes), site.argPath);
    }
    const dependsOn = [...new Set(sites.flatMap((site) => site.producers.flat()))].sort((a, b) => a - b);
    return { ...call, sites, dependsOn, level: 0 };
  });

  // 4. Cycles, then levels.
  const cycles = findCycles(analyzed.map((call) => call?.dependsOn ?? []));
  for (const cycle of cycles) {
    const name = (index: number) => `call ${index} (${analyzed[index]?.call._tool})`;
    const message =
      cycle.length === 1
        ? 'reads a path that only its own output writes; a call cannot wait for itself'
        : `is part of a cycle: ${[...cycle, cycle[0]!].map(name).join(' waits for ')}; plans must be acyclic`;
    add(Math.min(...cycle), 'cycle', message);
  }

  if (issues.length > 0) {
    issues.sort((a, b) => a.index - b.index);
    return { ok: false, error: new GraphValidationError('graph_invalid', undefined, { issues }) };
  }
  const ready = analyzed as (AnalyzedCall & { level: number })[];
  const levelOf = (index: number): number => {
    const call = ready[index]!;
    if (call.level === 0 && call.dependsOn.length > 0) call.level = 1 + Math.max(...call.dependsOn.map(levelOf));
    return call.level;
  };
  const levels: number[][] = [];
  for (const call of ready) (levels[levelOf(call.index)] ??= []).push(call.index);
  return { ok: true, graph: { calls: ready, levels } };
}

/** Whether the tool's schema is an object schema naming `key` in its shape (zod 4, mini or classic). */
function declaresKey(tool: GraphTool | undefined, key: string): boolean {
  const shape = (tool?.schema as { _zod?: { def?: { shape?: unknown } } } | undefined)?._zod?.def?.shape;
  return typeof shape === 'object' && shape !== null && Object.hasOwn(shape, key);
}

/** Models misspell the reserved keys (`_output_path`, `outputPath`, `_Tool`); say which one they meant. */
function nearMiss(key: string): string | null {
  const bare = key.replace(/[_\-\s]/g, '').toLowerCase();
  if (bare === 'outputpath' && key !== '_outputPath') return '_outputPath';
  if (bare === 'tool' && key.startsWith('_') && key !== '_tool') return '_tool';
  return null;
}

function parseOutput(value: unknown, add: (kind: GraphIssueKind, message: string) => void): ReferenceExpression | null {
  if (value === undefined) return null;
  if (!isReferenceString(value)) {
    add('malformed_reference', '_outputPath must be a state reference such as "†state.result" (or "$state.result")');
    return null;
  }
  const result = parseReferenceExpression(value);
  if (!result.ok) {
    add(result.unsafe ? 'unsafe_path' : 'malformed_reference', result.message);
    return null;
  }
  const { expression } = result;
  if (expression.refs.some((ref) => ref.root !== 'state')) {
    add('malformed_reference', '_outputPath can only write †state paths; the input is read-only');
    return null;
  }
  if (expression.op === 'and') {
    for (const [i, a] of expression.refs.entries()) {
      if (expression.refs.slice(0, i).some((b) => pathsOverlap(a.path, b.path))) {
        add('duplicate_output', `the fan-out writes ${formatReference(a)} twice (or inside another of its paths)`);
        return null;
      }
    }
  }
  return expression;
}

/** Schema problems of the literal arguments: issues at or under a reference are left for run time. */
function staticSchemaIssues(
  tool: GraphTool,
  args: Record<string, unknown>,
  sitePaths: readonly (readonly (string | number)[])[],
): { path?: string; message: string }[] {
  let result: ReturnType<typeof safeParse>;
  try {
    result = safeParse(tool.schema, args);
  } catch {
    return []; // an async refinement cannot run synchronously; the run-time parse checks it
  }
  if (result.success) return [];
  const within = (outer: readonly PropertyKey[], inner: readonly PropertyKey[]) =>
    outer.length <= inner.length && outer.every((key, i) => String(key) === String(inner[i]));
  return (
    result.error.issues
      .filter((issue) => !sitePaths.some((site) => within(site, issue.path)))
      // An issue above a reference (a union of shapes, an object-level refinement) may be the
      // reference string's doing: it is checked at run time with the resolved value. Unknown keys are not.
      .filter((issue) => issue.code === 'unrecognized_keys' || !sitePaths.some((site) => within(issue.path, site)))
      .map((issue) => {
        const path = formatPath(issue.path);
        return { ...(path ? { path } : {}), message: `${path || 'the arguments'} ${describeIssue(issue)}` };
      })
  );
}

function describeMissing(
  op: ReferenceExpression['op'],
  missing: readonly Reference[],
  input: Record<string, unknown> | undefined,
  writes: readonly { ref: Reference }[],
): string {
  const each = missing.map((ref) =>
    ref.root === 'input'
      ? `the input has no ${formatReference(ref)} (its keys: ${Object.keys(input ?? {}).join(', ') || 'none'})`
      : `no call writes ${formatReference(ref)} and the state holds no such value`,
  );
  const written = writes.length > 0 ? ` The plan writes: ${[...new Set(writes.map((w) => formatReference(w.ref)))].join(', ')}.` : '';
  return `${op === 'or' ? 'no alternative can be satisfied: ' : ''}${each.join('; ')}.${written}`;
}

/** Every cycle in a dependency list (node -> the nodes it waits for), each once. */
function findCycles(dependsOn: readonly (readonly number[])[]): number[][] {
  const colour = new Array<0 | 1 | 2>(dependsOn.length).fill(0);
  const stack: number[] = [];
  const seen = new Set<string>();
  const cycles: number[][] = [];
  const visit = (node: number) => {
    colour[node] = 1;
    stack.push(node);
    for (const next of dependsOn[node] ?? []) {
      if (colour[next] === 1) {
        const cycle = stack.slice(stack.indexOf(next));
        const key = [...cycle].sort((a, b) => a - b).join(',');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (colour[next] === 0) visit(next);
    }
    stack.pop();
    colour[node] = 2;
  };
  for (let node = 0; node < dependsOn.length; node++) if (colour[node] === 0) visit(node);
  return cycles;
}
