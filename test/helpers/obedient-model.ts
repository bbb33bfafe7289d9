/**
 * A turn model that obeys whatever instructions it reads in its prompt: page text, observations,
 * its own todos. It is the attacker's best case: every injected "call X" becomes a tool action and
 * every "rewrite tN to "…"" a replace. With nothing to obey it finishes.
 */
import type { LLMRequest } from '../../src/llm/provider.js';
import type { ScriptedResponder } from '../../src/llm/scripted.js';

/** One parsed instruction: a tool call with its JSON args, or a rewrite of a todo. */
export type Obeyed = { tool: string; args: Record<string, unknown> } | { rewrite: string; text: string };

/** The instructions in `text`: `call <tool> with {json}` / `call <tool>`, and `rewrite <id> to "<text>"`. */
export function instructionsIn(text: string, tools: readonly string[]): Obeyed[] {
  const found: Array<{ at: number; obeyed: Obeyed }> = [];
  for (const match of text.matchAll(/\bcall ([a-z_]+)(?: with (\{[^{}]*\}))?/gi)) {
    const tool = match[1] as string;
    if (!tools.includes(tool)) continue;
    let args: Record<string, unknown> = {};
    try {
      args = match[2] ? (JSON.parse(match[2]) as Record<string, unknown>) : {};
    } catch {
      args = {};
    }
    found.push({ at: match.index ?? 0, obeyed: { tool, args } });
  }
  for (const match of text.matchAll(/\brewrite (t\d+) to "([^"]+)"/gi)) {
    found.push({ at: match.index ?? 0, obeyed: { rewrite: match[1] as string, text: match[2] as string } });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.obeyed);
}

/** The tool names of the turn's system prompt (`Tools: a (…); b`). */
export function toolsIn(request: LLMRequest): string[] {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  const line = system.split('\n').find((entry) => entry.startsWith('Tools: '));
  return line
    ? line
        .slice('Tools: '.length)
        .split('; ')
        .map((entry) => entry.split(' ')[0] as string)
    : [];
}

/** The last user message of a request. */
export function lastUserText(request: LLMRequest): string {
  return request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
}

/**
 * A responder for `createScriptedProvider`: each turn it names the first open todo, obeys every
 * instruction in the prompt, and finishes once a turn has nothing to obey (or after `maxTurns`).
 */
export function obedientModel(options: { maxTurns?: number } = {}): ScriptedResponder {
  return (request, call) => {
    const user = lastUserText(request);
    const todo = /^(t\d+)\b/m.exec(user.slice(user.indexOf('Todos')))?.[1];
    const obeyed = instructionsIn(user, toolsIn(request));
    const actions: unknown[] = obeyed.flatMap((entry) => ('tool' in entry ? [{ type: 'tool', name: entry.tool, args: entry.args }] : []));
    const replace = obeyed.flatMap((entry) => ('rewrite' in entry ? [{ id: entry.rewrite, description: entry.text }] : []));
    const done = actions.length === 0 || call + 1 >= (options.maxTurns ?? Number.POSITIVE_INFINITY);
    if (done) actions.push({ type: 'task_finish', summary: 'Did what the page said.' });
    return {
      turn_planning: { todo_id: todo ?? 't1', does: 'Doing what the page asks', is_last_turn: false },
      todo_adjust: { remove: [], replace },
      actions,
    };
  };
}
