import { describe, expect, it } from 'vitest';
import { EnvelopeError } from '../../src/errors.js';
import { parseTurnEnvelope, safeParseTurnEnvelope } from '../../src/envelope/parse.js';

const envelope = {
  turn_planning: { todo_id: 't2', does: 'Show the three tiers', is_last_turn: false },
  todo_adjust: { remove: ['t1'], replace: [{ id: 't3', description: 'Open the trial form', intent: 'click' }] },
  actions: [
    { type: 'narrate', text: 'These are the plans.', target: '#pricing' },
    { type: 'tool', name: 'navigate', args: { path: '/commercial' } },
    { type: 'task_finish', summary: 'Toured the pricing page.' },
  ],
};

function errorOf(text: string, options = {}): EnvelopeError {
  const result = safeParseTurnEnvelope(text, options);
  if (result.success) throw new Error(`expected a failure, got ${JSON.stringify(result.data)}`);
  return result.error;
}

describe('parseTurnEnvelope', () => {
  it('reads a well-formed envelope', () => {
    expect(parseTurnEnvelope(JSON.stringify(envelope))).toEqual(envelope);
  });

  it('tolerates prose, fences, trailing commas, single quotes and null fields', () => {
    const text = "Sure! Here is my turn:\n```json\n{'turn_planning': {'todo_id': 't1', 'does': 'Greet', 'is_last_turn': null},\n" +
      '"todo_adjust": null, "actions": [{"type": "narrate", "text": "Hello", "target": null},],}\n```\nDone.';
    expect(parseTurnEnvelope(text)).toEqual({
      turn_planning: { todo_id: 't1', does: 'Greet', is_last_turn: false },
      actions: [{ type: 'narrate', text: 'Hello' }],
    });
  });

  it('reads an envelope after prose holding a brace that never closes', () => {
    // Before: the prose brace swallowed the envelope and the reply was refused as "cut off".
    expect(parseTurnEnvelope(`Press { to open the menu. Here is my turn:\n${JSON.stringify(envelope)}`)).toEqual(envelope);
    expect(parseTurnEnvelope(`Working on {the user's request}:\n${JSON.stringify(envelope)}`)).toEqual(envelope);
  });

  it('fills the defaults a model may leave out', () => {
    expect(parseTurnEnvelope('{"todo_adjust": {"remove": ["t1"]}, "actions": [{"type": "tool", "name": "click"}]}')).toEqual({
      todo_adjust: { remove: ['t1'], replace: [] },
      actions: [{ type: 'tool', name: 'click', args: {} }],
    });
  });

  it('explains a reply without JSON', () => {
    const error = errorOf('I will now show the pricing page.');
    expect(error).toBeInstanceOf(EnvelopeError);
    expect(error.code).toBe('envelope_invalid');
    expect(error.message).toMatch(/no usable JSON/);
    expect(error.message).toContain('"turn_planning"');
    expect(error.raw).toBe('I will now show the pricing page.');
  });

  it('refuses a cut-off envelope instead of guessing its end', () => {
    const text = JSON.stringify(envelope).slice(0, 120);
    const error = errorOf(text);
    expect(error.message).toMatch(/cut off/);
    expect(error.message).toMatch(/shorter envelope/);
  });

  it('names every bad field with its path and what to send', () => {
    const error = errorOf(JSON.stringify({
      turn_planning: { does: 3 },
      actions: [{ type: 'jump' }, { type: 'tool' }, { type: 'narrate', text: '  ' }],
    }));
    expect(error.message).toBe(
      'Invalid envelope: turn_planning.does must be a string, not the number 3; actions[0].type must be one of narrate, tool, ask, task_finish; ' +
        'actions[1].name is required (a string); actions[2].text must not be empty. Fix them and send the whole envelope again.',
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(['turn_planning.does', 'actions[0].type', 'actions[1].name', 'actions[2].text']);
  });

  it('says when the JSON is not an envelope at all', () => {
    expect(errorOf('{"task_summary": "x", "todos": []}').message).toMatch(/not a turn envelope/);
    expect(errorOf('[{"type": "narrate", "text": "hi"}]').message).toMatch(/not a turn envelope/);
  });

  it.each(['insert', 'add', 'create'])('refuses an "%s" key in todo_adjust, naming the ids to use instead', (key) => {
    const text = JSON.stringify({ ...envelope, todo_adjust: { [key]: [{ description: 'One more thing' }] } });
    const error = errorOf(text, { remainingIds: ['t3', 't4'] });
    expect(error.code).toBe('envelope_insert_forbidden');
    expect(error.message).toContain(`"${key}"`);
    expect(error.message).toContain('remove or replace existing ids (t3, t4)');
    expect(error.raw).toBe(text);
    expect(() => parseTurnEnvelope(text)).toThrow(EnvelopeError);
  });

  it('never lets __proto__ or constructor.prototype reach a prototype', () => {
    const text =
      '{"actions": [{"type": "tool", "name": "fill", "__proto__": {"type": "ask"},' +
      ' "args": {"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "nested": {"__proto__": {"polluted": true}}}}]}';
    const { actions } = parseTurnEnvelope(text);
    const action = actions[0];
    if (action?.type !== 'tool') throw new Error('expected a tool action');
    expect(Object.getPrototypeOf(action.args)).toBe(Object.prototype);
    expect(Object.hasOwn(action.args, '__proto__')).toBe(false);
    expect((action.args as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(action.args.nested)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((Object.prototype as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('parseTurnEnvelope, array-wrapped replies', () => {
  it('reads an envelope a model wrapped in a one-item array, as the streaming parser does', async () => {
    const { createEnvelopeStreamParser } = await import('../../src/envelope/stream.js');
    const envelope = { turn_planning: { todo_id: 't1', does: 'Greet', is_last_turn: false }, todo_adjust: { remove: [], replace: [] }, actions: [{ type: 'narrate', text: 'Hi' }] };
    const text = JSON.stringify([envelope]);
    expect(parseTurnEnvelope(text)).toEqual(envelope);
    const streamed = createEnvelopeStreamParser();
    streamed.push(text);
    expect(streamed.end()).toEqual({ success: true, data: envelope });
    expect(() => parseTurnEnvelope(JSON.stringify([envelope, envelope]))).toThrow(/must be a JSON object/);
  });
});
