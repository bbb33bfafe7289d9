import { argumentsOf, isPlainObject, referenceSites } from './call.js';
import { GraphValidationError, notAListIssue } from './errors.js';
import { formatReference, isReferenceString, parseReferenceExpression, pathsOverlap, type ReferenceExpression } from './reference.js';

/**
 * Draws a tool-call plan as a Mermaid flowchart: calls are nodes, and each state path is an edge
 * from the call that writes it to the call that reads it, labelled with the path. Input
 * references come from an `input` node, references to values already in the state from a
 * `state` node, and written paths nobody reads end in a hexagon of their own. Dotted edges are
 * the roads that may not be taken: later `||` alternatives, in outputs and in fallbacks.
 *
 * Draws invalid plans too (malformed references are left out), so it can show what a model
 * proposed; only a plan that is not a list at all throws a `GraphValidationError`. Labels are escaped, so tool names and paths cannot break the chart.
 *
 * @example
 * ```ts
 * toMermaid([
 *   { _tool: 'fetchUserProfile', userName: 'Alice', _outputPath: '†state.profile' },
 *   { _tool: 'summarizeProfile', profile: '†state.profile' },
 * ]);
 * // graph TD
 * //   c0["0: fetchUserProfile"]
 * //   c1["1: summarizeProfile"]
 * //   c0 -->|"state.profile"| c1
 * ```
 */
export function toMermaid(calls: readonly unknown[]): string {
  if (!Array.isArray(calls)) throw new GraphValidationError('graph_invalid', undefined, { issues: [notAListIssue(calls)] });
  const parsed = calls.map((raw) => {
    if (!isPlainObject(raw)) return { tool: '(invalid call)', output: null, reads: [] as ReferenceExpression[] };
    const reads = referenceSites(argumentsOf(raw)).flatMap((site) => tolerant(site.text) ?? []);
    const output = isReferenceString(raw._outputPath) ? tolerant(raw._outputPath) : null;
    return { tool: typeof raw._tool === 'string' ? raw._tool : '(invalid call)', output, reads };
  });

  const lines = ['graph TD'];
  const edges = new Set<string>();
  const edge = (from: string, to: string, label: string, dotted: boolean) => edges.add(`  ${from} ${dotted ? '-.->' : '-->'}|"${escape(label)}"| ${to}`);
  let usesInput = false;
  let usesState = false;
  const read = new Set<string>();

  parsed.forEach((call, index) => {
    lines.push(`  c${index}["${escape(`${index}: ${call.tool}`)}"]`);
  });
  parsed.forEach((call, index) => {
    for (const expression of call.reads) {
      expression.refs.forEach((ref, position) => {
        const fallback = expression.op === 'or' && position > 0;
        const label = formatReference(ref);
        if (ref.root === 'input') {
          usesInput = true;
          edge('input', `c${index}`, label, fallback);
          return;
        }
        let produced = false;
        parsed.forEach((producer, from) => {
          producer.output?.refs.forEach((out, alternative) => {
            if (!pathsOverlap(out.path, ref.path)) return;
            produced = true;
            read.add(`${from}:${alternative}`);
            edge(`c${from}`, `c${index}`, label, fallback || (producer.output!.op === 'or' && alternative > 0));
          });
        });
        if (!produced) {
          usesState = true;
          edge('state', `c${index}`, label, fallback);
        }
      });
    }
  });

  let sinks = 0;
  parsed.forEach((call, index) => {
    call.output?.refs.forEach((out, alternative) => {
      if (read.has(`${index}:${alternative}`)) return;
      const node = `s${sinks++}`;
      lines.push(`  ${node}{{"${escape(formatReference(out))}"}}`);
      edge(`c${index}`, node, 'writes', call.output!.op === 'or' && alternative > 0);
    });
  });
  if (usesInput) lines.splice(1, 0, '  input[/"input"/]');
  if (usesState) lines.splice(1, 0, '  state[("state")]');
  return [...lines, ...edges].join('\n');
}

function tolerant(text: string): ReferenceExpression | null {
  const result = parseReferenceExpression(text);
  return result.ok ? result.expression : null;
}

/** Mermaid entity codes for the characters that could end a label or be read as markup. */
function escape(text: string): string {
  return text
    .replace(/#/g, '#35;')
    .replace(/&/g, '#amp;')
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/\|/g, '#124;')
    .replace(/[`\r\n]+/g, ' ');
}
