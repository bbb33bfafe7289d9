import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeParseTurnEnvelope, type SafeParseTurnEnvelopeResult } from '../../src/envelope/parse.js';
import type { TodoAdjust, TurnAction, TurnPlanning } from '../../src/envelope/schema.js';
import { createEnvelopeStreamParser, type EnvelopeStreamParser } from '../../src/envelope/stream.js';
import { Plan } from '../../src/plan.js';

type Emitted = ['planning', TurnPlanning] | ['adjust', TodoAdjust] | ['action', TurnAction, number];

function recorder(remainingIds?: string[], maxActions?: number): { parser: EnvelopeStreamParser; emitted: Emitted[] } {
  const emitted: Emitted[] = [];
  const parser = createEnvelopeStreamParser({
    ...(remainingIds ? { remainingIds } : {}),
    ...(maxActions ? { maxActions } : {}),
    onTurnPlanning: (planning) => emitted.push(['planning', planning]),
    onTodoAdjust: (adjust) => emitted.push(['adjust', adjust]),
    onAction: (action, index) => emitted.push(['action', action, index]),
  });
  return { parser, emitted };
}

const envelope = {
  turn_planning: { todo_id: 't2', does: 'Show the "tiers" {all three}', is_last_turn: false },
  todo_adjust: { remove: ['t1'], replace: [] },
  actions: [
    { type: 'narrate', text: 'Braces } and quotes \\" and ] inside', target: '#pricing' },
    { type: 'tool', name: 'navigate', args: { path: '/commercial', deep: { list: [1, { a: '}' }] } } },
    { type: 'task_finish', summary: 'Done.' },
  ],
};

describe('createEnvelopeStreamParser', () => {
  it('emits each piece as soon as its JSON value closes, in order', () => {
    const text = JSON.stringify(envelope);
    const { parser, emitted } = recorder();
    const seenAt: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const before = emitted.length;
      parser.push(text[i] as string);
      if (emitted.length > before) seenAt.push(i);
    }
    // turn_planning at its closing brace; todo_adjust with it; each action at its own closing brace.
    const closeOf = (fragment: string) => text.indexOf(fragment) + fragment.length - 1;
    expect(seenAt).toEqual([
      closeOf('"is_last_turn":false}'),
      closeOf('"replace":[]}'),
      closeOf('"target":"#pricing"}'),
      closeOf('{"a":"}"}]}}}'),
      closeOf('"summary":"Done."}'),
    ]);
    expect(emitted.map((entry) => entry[0])).toEqual(['planning', 'adjust', 'action', 'action', 'action']);
    const result = parser.end();
    expect(result).toEqual(safeParseTurnEnvelope(text));
    expect(emitted.length).toBe(5); // end() emits nothing twice
  });

  it('ends with the whole-text envelope when the model writes typographic quotes', () => {
    const text = '{“todo”: “t2”, “actions”: [{“type”: “narrate”, “text”: “Use the } key”}, {“type”: “task_finish”, “summary”: “Done”}]}';
    const { parser, emitted } = recorder(['t2']);
    for (const piece of text.match(/[\s\S]{1,7}/g) ?? []) parser.push(piece);
    const result = parser.end();
    expect(result.success && result.data.actions).toEqual([
      { type: 'narrate', text: 'Use the } key' },
      { type: 'task_finish', summary: 'Done' },
    ]);
    expect(result).toEqual(safeParseTurnEnvelope(text, { remainingIds: ['t2'] }));
    // Whatever went out while streaming is what the whole text says.
    for (const entry of emitted) if (entry[0] === 'action') expect(entry[1]).toEqual(result.success && result.data.actions[entry[2]]);
  });

  it('skips prose and a fence before the object, and handles keys and escapes split across deltas', () => {
    const text = `Here you go:\n\`\`\`json\n${JSON.stringify(envelope, null, 2)}\n\`\`\``;
    const { parser, emitted } = recorder();
    const cuts = [3, 20, 27, 28, 29, 60, 61, 62, 95, 96, 140, 141, 200];
    let last = 0;
    for (const cut of [...cuts, text.length]) {
      parser.push(text.slice(last, cut));
      last = cut;
    }
    expect(parser.end()).toEqual({ success: true, data: envelope });
    expect(emitted.map((entry) => entry[1])).toEqual([envelope.turn_planning, envelope.todo_adjust, ...envelope.actions]);
  });

  it('keeps the order when the model writes the keys in another order', () => {
    const text = JSON.stringify({ actions: envelope.actions, todo_adjust: envelope.todo_adjust, turn_planning: envelope.turn_planning });
    const { parser, emitted } = recorder();
    parser.push(text.slice(0, text.indexOf('"todo_adjust"')));
    expect(emitted).toEqual([]); // actions wait for turn_planning and todo_adjust
    parser.push(text.slice(text.indexOf('"todo_adjust"')));
    expect(emitted.map((entry) => entry[0])).toEqual(['planning', 'adjust', 'action', 'action', 'action']);
    expect(parser.end().success).toBe(true);
  });

  it('does not hold actions back when todo_adjust is left out: an empty adjust goes first', () => {
    const { parser, emitted } = recorder();
    const text = JSON.stringify({ turn_planning: envelope.turn_planning, actions: [envelope.actions[0], envelope.actions[1]] });
    // Everything up to the end of the first action, but not the rest.
    const firstActionEnd = text.indexOf(JSON.stringify(envelope.actions[0])) + JSON.stringify(envelope.actions[0]).length + 1;
    parser.push(text.slice(0, firstActionEnd));
    expect(emitted).toEqual([
      ['planning', envelope.turn_planning],
      ['adjust', { remove: [], replace: [] }],
      ['action', envelope.actions[0], 0],
    ]);
    parser.push(text.slice(firstActionEnd));
    expect(parser.end()).toEqual(safeParseTurnEnvelope(text));
    expect(emitted.map((entry) => entry[0])).toEqual(['planning', 'adjust', 'action', 'action']);
  });

  it('applies a todo_adjust written after the actions in a second call at the end', () => {
    const { parser, emitted } = recorder();
    const late = { remove: ['t1'], replace: [] };
    const text = `{"turn_planning":${JSON.stringify(envelope.turn_planning)},"actions":[${JSON.stringify(envelope.actions[0])}],"todo_adjust":${JSON.stringify(late)}}`;
    parser.push(text);
    const result = parser.end();
    expect(result.success).toBe(true);
    expect(result).toEqual(safeParseTurnEnvelope(text));
    expect(emitted).toEqual([
      ['planning', envelope.turn_planning],
      ['adjust', { remove: [], replace: [] }],
      ['action', envelope.actions[0], 0],
      ['adjust', late],
    ]);
  });

  it('stops emitting at the first invalid piece, and end() reports it', () => {
    const text = JSON.stringify({ ...envelope, actions: [envelope.actions[0], { type: 'tool' }, envelope.actions[2]] });
    const { parser, emitted } = recorder();
    parser.push(text);
    expect(emitted.map((entry) => entry[0])).toEqual(['planning', 'adjust', 'action']);
    expect(parser.error?.message).toMatch(/actions\[1\]\.name is required/);
    const result = parser.end();
    expect(result.success).toBe(false);
    expect(emitted.length).toBe(3);
  });

  it('refuses an insert as soon as todo_adjust closes, before any action', () => {
    const { parser, emitted } = recorder(['t2', 't3']);
    parser.push(JSON.stringify({ ...envelope, todo_adjust: { insert: [{ description: 'More' }] } }));
    expect(emitted.map((entry) => entry[0])).toEqual(['planning']);
    expect(parser.error?.code).toBe('envelope_insert_forbidden');
    const result = parser.end();
    expect(result.success || result.error.message).toMatch(/name or replace existing ids \(t2, t3\)/);
  });

  it('emits nothing from an envelope that never closes', () => {
    const text = JSON.stringify(envelope);
    const { parser, emitted } = recorder();
    parser.push(text.slice(0, text.indexOf('"summary"')));
    const result = parser.end();
    expect(result.success || result.error.message).toMatch(/cut off/);
    expect(emitted.map((entry) => entry[0])).toEqual(['planning', 'adjust', 'action', 'action']);
  });

  it('tolerates an unquoted key and single quotes, like the whole-text parse', () => {
    const text = "{turn_planning: {'todo_id': 't1', 'does': 'Greet'}, todo_adjust: {}, actions: [{'type': 'narrate', 'text': \"It's me\"}]}";
    const { parser, emitted } = recorder();
    parser.push(text);
    expect(emitted.map((entry) => entry[0])).toEqual(['planning', 'adjust', 'action']);
    expect(parser.end()).toEqual(safeParseTurnEnvelope(text));
  });

  it('never emits the actions of a repeated actions key (the whole text keeps only the last one)', () => {
    const first = '{"type":"narrate","text":"A"}';
    const second = '{"type":"tool","name":"navigate","args":{"path":"/b"}}';
    const { parser, emitted } = recorder();
    parser.push(`{"turn_planning":{"todo_id":"t1","does":"x"},"todo_adjust":{},"actions":[${first}],"actions":[${second}]}`);
    // The second list is not what the model meant when it started: it must not run on the page.
    expect(emitted.filter((entry) => entry[0] === 'action')).toEqual([['action', { type: 'narrate', text: 'A' }, 0]]);
    expect(parser.end().success).toBe(false);

    // Nothing was emitted from the first (empty) list: the whole-text result (the last list) stands.
    const quiet = recorder();
    const text = `{"turn_planning":{"todo_id":"t1","does":"x"},"todo_adjust":{},"actions":[],"actions":[${second}]}`;
    quiet.parser.push(text);
    expect(quiet.emitted.filter((entry) => entry[0] === 'action')).toEqual([]);
    expect(quiet.parser.end()).toEqual(safeParseTurnEnvelope(text));
    expect(quiet.emitted.filter((entry) => entry[0] === 'action')).toEqual([['action', { type: 'tool', name: 'navigate', args: { path: '/b' } }, 0]]);
  });

  it('refuses a stream whose whole text means something else than what was emitted', () => {
    const text = '{"turn_planning": {"does": "A"}, "todo_adjust": {}, "actions": [], "turn_planning": {"does": "B"}}';
    const { parser } = recorder();
    parser.push(text);
    const result = parser.end();
    expect(result.success || result.error.message).toMatch(/ambiguous/);
  });
});

// The property: whatever the chunking, the final result is the whole-text parse, and the emitted
// pieces are exactly that envelope's pieces, in order.
const word = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  fc.constantFrom('"quoted"', 'back\\slash', '{brace}', '[x]', 'ünïcödé 🎉 日本語', 'line\nbreak\ttab', '\u2028', 'a,b:c'),
);
const text = word.map((value) => `x${value}`);
const turnPlanning = fc.record({ todo_id: fc.constantFrom('t1', 't2', 't10'), does: fc.string(), is_last_turn: fc.boolean() }, { requiredKeys: ['does'] });
const todoAdjust = fc.record(
  {
    remove: fc.array(fc.constantFrom('t1', 't2', 't3'), { maxLength: 3 }),
    replace: fc.array(
      fc.record({ id: fc.constantFrom('t1', 't4'), description: text, intent: fc.constantFrom('narrate', 'click') }, { requiredKeys: ['id'] }),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: [] },
);
const action = fc.oneof(
  fc.record({ type: fc.constant('narrate'), text, target: fc.option(fc.constantFrom('#a', 'main > p', '[data-x="1"]'), { nil: undefined }) }),
  fc.record({
    type: fc.constant('tool'),
    name: fc.constantFrom('navigate', 'click', 'fill'),
    args: fc.dictionary(word, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
  }),
  fc.record({ type: fc.constant('ask'), question: text }),
  fc.record({ type: fc.constant('task_finish'), summary: fc.string() }),
  fc.constantFrom({ type: 'tool' }, { type: 'jump' }, 'narrate'), // invalid ones too
);
const fullEnvelopes = fc.record(
  {
    turn_planning: turnPlanning,
    todo_adjust: fc.oneof(todoAdjust, fc.constant({ insert: [{ description: 'x' }] })),
    actions: fc.array(action, { maxLength: 4 }),
  },
  { requiredKeys: ['actions'] },
);
// The compact form, in the order the prompt teaches: todo, last, replace, actions.
const replaceEntry = fc.record({ id: fc.constantFrom('t1', 't4'), description: text, intent: fc.constantFrom('narrate', 'click') }, { requiredKeys: ['id'] });
const compactEnvelopes = fc.record(
  {
    todo: fc.oneof(fc.constantFrom('t1', 't2', 't10'), fc.constant(3)), // 3: invalid, refused like a bad full-form field
    last: fc.boolean(),
    replace: fc.array(replaceEntry, { maxLength: 2 }),
    actions: fc.array(action, { maxLength: 4 }),
  },
  { requiredKeys: ['actions'] },
);
const envelopes = fc.oneof(fullEnvelopes, compactEnvelopes);
const wrapped = fc
  .tuple(envelopes, fc.constantFrom(0, 2), fc.constantFrom('', 'Sure:\n', '```json\n', 'Turn 2 →\n```\n'), fc.constantFrom('', '\n```', '\nDone.'))
  .map(([value, indent, before, after]) => before + JSON.stringify(value, null, indent) + after);
const chunked = wrapped.chain((full) =>
  fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, full.length - 1) }), { maxLength: 40 }).map((cuts) => {
    const sorted = [0, ...cuts.sort((a, b) => a - b), full.length];
    return { full, chunks: sorted.slice(1).map((end, i) => full.slice(sorted[i], end)) };
  }),
);

describe('createEnvelopeStreamParser (property)', () => {
  it('gives the whole-text result whatever the chunking, and emits exactly its pieces (both forms)', () => {
    fc.assert(
      fc.property(chunked, ({ full, chunks }) => {
        const { parser, emitted } = recorder();
        for (const chunk of chunks) parser.push(chunk);
        const result = parser.end();
        const whole = safeParseTurnEnvelope(full);
        expect(result.success).toBe(whole.success);
        if (!result.success || !whole.success) return;
        expect(result.data).toEqual(whole.data);
        const { turn_planning, todo_adjust, actions } = whole.data;
        expect(emitted).toEqual([
          ...(turn_planning ? [['planning', turn_planning]] : []),
          ['adjust', todo_adjust ?? { remove: [], replace: [] }],
          ...actions.map((item, index) => ['action', item, index]),
        ]);
      }),
      { numRuns: 400 },
    );
  });

  it('parses a long reply streamed one character at a time in linear time (timing guard)', () => {
    const text = JSON.stringify({
      turn_planning: { todo_id: 't1', does: 'Narrate', is_last_turn: false },
      actions: [...Array.from({ length: 2000 }, () => ({ type: 'narrate', text: 'Hello there.' })), { type: 'narrate', text: 'y'.repeat(150_000) }],
    });
    const { parser, emitted } = recorder(undefined, 5000);
    const started = performance.now();
    for (const ch of text) parser.push(ch);
    const result = parser.end();
    // Quadratic before (a 200 KB reply in 1-character deltas took ~9 s; 1 MB took ~280 s).
    expect(performance.now() - started).toBeLessThan(2000);
    // The last narrate is past the text limit: refused, after the 2,000 before it went out.
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message).toMatch(/actions\[2000\]\.text must have at most 2000 characters/);
    expect(emitted.filter((entry) => entry[0] === 'action')).toHaveLength(2000);
    expect(parser.text).toBe(text);
  });

  it('resumes after a throwing handler with the rest of the same delta', () => {
    const text = JSON.stringify(envelope);
    let calls = 0;
    const seen: number[] = [];
    const parser = createEnvelopeStreamParser({
      onAction: (_action, index) => {
        seen.push(index);
        if (calls++ === 0) throw new Error('host failed');
      },
    });
    expect(() => parser.push(text)).toThrow('host failed');
    parser.push('');
    expect(seen).toEqual([0, 1, 2]);
    expect(parser.end().success).toBe(true);
  });
});

describe('createEnvelopeStreamParser, the compact form and narration as it streams', () => {
  type Event = ['planning', string | undefined] | ['adjust', TodoAdjust] | ['delta', number, string, string | undefined] | ['action', number];
  function narrationRecorder() {
    const events: Event[] = [];
    const parser = createEnvelopeStreamParser({
      onTurnPlanning: (planning) => events.push(['planning', planning.todo_id]),
      onTodoAdjust: (adjust) => events.push(['adjust', adjust]),
      onNarrateDelta: (delta, target, { index }) => events.push(['delta', index, delta, target]),
      onAction: (_action, index) => events.push(['action', index]),
    });
    return { parser, events };
  }

  it('hands a narrate its target, then its words while they are written, before the action closes', () => {
    const text = '{"todo":"t2","actions":[{"type":"narrate","target":"#tiers","text":"Here are the three plans."},{"type":"tool","name":"click","args":{}}]}';
    const { parser, events } = narrationRecorder();
    parser.push(text.slice(0, text.indexOf('three')));
    expect(events).toEqual([
      ['planning', 't2'],
      ['adjust', { remove: [], replace: [], complete_before: 't2' }],
      ['delta', 0, 'Here are the', '#tiers'], // the blank before "three" waits: it may be the end
    ]);
    parser.push(text.slice(text.indexOf('three')));
    expect(events.slice(3)).toEqual([
      ['delta', 0, ' three plans.', '#tiers'],
      ['action', 0],
      ['action', 1],
    ]);
    expect(parser.end().success).toBe(true);
  });

  it('streams the words when the model writes the text before the type or the target', () => {
    const text = '{"todo":"t1","actions":[{"text":"Hello there.","type":"narrate","target":"#a"}]}';
    const { parser, events } = narrationRecorder();
    parser.push(text.slice(0, text.indexOf('"type"')));
    expect(events.filter((event) => event[0] === 'delta')).toEqual([]); // not known to be a narrate yet
    parser.push(text.slice(text.indexOf('"type"'), text.indexOf('"target"')));
    expect(events.filter((event) => event[0] === 'delta')).toEqual([['delta', 0, 'Hello there.', undefined]]);
    parser.push(text.slice(text.indexOf('"target"')));
    expect(events.at(-1)).toEqual(['action', 0]);
    expect(parser.end()).toEqual(safeParseTurnEnvelope(text));
  });

  it('holds the words of actions written before the todo, and gives them whole before their action', () => {
    const text = '{"actions":[{"type":"narrate","text":"Hi."}],"todo":"t1"}';
    const { parser, events } = narrationRecorder();
    parser.push(text.slice(0, text.indexOf('"todo"')));
    expect(events).toEqual([]);
    parser.push(text.slice(text.indexOf('"todo"')));
    expect(parser.end().success).toBe(true);
    expect(events).toEqual([
      ['planning', 't1'],
      ['adjust', { remove: [], replace: [], complete_before: 't1' }],
      ['delta', 0, 'Hi.', undefined],
      ['action', 0],
    ]);
  });

  it('applies a compact replace written after the actions in a second call, and reads a late last', () => {
    const rewrite = { id: 't4', description: 'Open the form' };
    const text = `{"todo":"t2","actions":[{"type":"narrate","text":"Hi."}],"last":true,"replace":${JSON.stringify([rewrite])}}`;
    const { parser, events } = narrationRecorder();
    parser.push(text);
    const result = parser.end();
    expect(result).toEqual(safeParseTurnEnvelope(text));
    expect(result.success && result.data.turn_planning?.is_last_turn).toBe(true);
    expect(events).toEqual([
      ['planning', 't2'],
      ['adjust', { remove: [], replace: [], complete_before: 't2' }],
      ['delta', 0, 'Hi.', undefined],
      ['action', 0],
      ['adjust', { remove: [], replace: [rewrite] }],
    ]);
  });

  it('refuses a todo_adjust after the actions that takes back what the compact todo implied', () => {
    const text = '{"todo":"t3","actions":[],"todo_adjust":{"remove":["t1"]}}';
    const { parser } = narrationRecorder();
    parser.push(text);
    const result = parser.end();
    expect(result.success || result.error.message).toMatch(/ambiguous/);
  });
});

// The narration property: whatever the chunking and wherever the model puts type, target and
// text, the pieces handed out for each narrate are its whole-text parse's text, in order between
// the actions; with the target written first, every piece carries it.
const narrateOrders = [
  ['type', 'target', 'text'],
  ['type', 'text', 'target'],
  ['text', 'type', 'target'],
  ['target', 'text', 'type'],
] as const;
const streamedNarrate = fc
  .record({
    text: fc.oneof(text, fc.constantFrom('  padded  ', 'ünï 🎉 "q" \\ \n x', 'line\u2028sep')),
    target: fc.constantFrom('#a', 'main > p', '[data-x="1"]'),
    order: fc.constantFrom(...narrateOrders),
  })
  .map(({ text: words, target, order }) => Object.fromEntries(order.map((key) => [key, key === 'type' ? 'narrate' : key === 'text' ? words : target])));
const narratedEnvelope = fc
  .record({ todo: fc.constantFrom('t1', 't2'), actions: fc.array(fc.oneof(streamedNarrate, streamedNarrate, action), { minLength: 1, maxLength: 4 }) })
  .chain((value) => fc.tuple(fc.constant(JSON.stringify(value)), fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 30 })));

describe('createEnvelopeStreamParser (narration property)', () => {
  it('delivers each narrate its whole-text parse text, between the actions, over random chunkings', () => {
    fc.assert(
      fc.property(narratedEnvelope, ([full, rawCuts]) => {
        const cuts = [...new Set(rawCuts.map((cut) => cut % full.length))].filter((cut) => cut > 0).sort((a, b) => a - b);
        const events: Array<['delta', number, string, string | undefined] | ['action', number]> = [];
        const parser = createEnvelopeStreamParser({
          onNarrateDelta: (delta, target, { index, text: soFar }) => {
            const before = events
              .filter((event) => event[0] === 'delta' && event[1] === index)
              .map((event) => event[2])
              .join('');
            expect(soFar).toBe(before + delta);
            events.push(['delta', index, delta, target]);
          },
          onAction: (_action, index) => events.push(['action', index]),
        });
        let last = 0;
        for (const cut of [...cuts, full.length]) {
          parser.push(full.slice(last, cut));
          last = cut;
        }
        const result = parser.end();
        const whole = safeParseTurnEnvelope(full);
        expect(result.success).toBe(whole.success);
        if (!whole.success) return;
        whole.data.actions.forEach((item, index) => {
          const mine = events.filter((event) => event[0] === 'delta' && event[1] === index) as Array<['delta', number, string, string | undefined]>;
          if (item.type !== 'narrate') {
            expect(mine).toEqual([]);
            return;
          }
          expect(mine.map((event) => event[2]).join('')).toBe(item.text);
          const positions = events.flatMap((event, at) => (event[0] === 'delta' && event[1] === index ? [at] : []));
          const actionAt = events.findIndex((event) => event[0] === 'action' && event[1] === index);
          const previousAt = events.findIndex((event) => event[0] === 'action' && event[1] === index - 1);
          for (const at of positions) expect(at > previousAt && at < actionAt).toBe(true);
          const source = JSON.parse(full).actions[index] as Record<string, string>;
          const keys = Object.keys(source);
          if (keys.indexOf('target') < keys.indexOf('text')) for (const event of mine) expect(event[3]).toBe(item.target);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('changes the plan as the whole text does, whatever order the compact keys come in', () => {
    const compactKeys = fc
      .record(
        {
          todo: fc.constantFrom('t1', 't2', 't3'),
          last: fc.boolean(),
          replace: fc.array(replaceEntry, { maxLength: 2 }),
          actions: fc.array(action, { maxLength: 2 }),
        },
        { requiredKeys: ['actions'] },
      )
      .chain((value) =>
        fc
          .shuffledSubarray(Object.keys(value), { minLength: Object.keys(value).length })
          .map((order) => JSON.stringify(Object.fromEntries(order.map((key) => [key, value[key as keyof typeof value]])))),
      );
    const planOf = () => {
      const plan = new Plan();
      plan.todos.createMany([1, 2, 3, 4].map((n) => ({ intent: 'narrate', description: `Step ${n}` })));
      return plan;
    };
    const statusesAfter = (apply: (plan: Plan) => void) => {
      const plan = planOf();
      try {
        apply(plan);
      } catch (error) {
        return `refused: ${(error as Error).message}`;
      }
      return plan.todos
        .list()
        .map((todo) => `${todo.id}:${todo.status}:${todo.description}`)
        .join(' ');
    };
    fc.assert(
      fc.property(compactKeys, (full) => {
        const whole = safeParseTurnEnvelope(full);
        let streamed: SafeParseTurnEnvelopeResult | undefined;
        const streamedPlan = statusesAfter((plan) => {
          let todo: string | undefined;
          const parser = createEnvelopeStreamParser({
            onTurnPlanning: (planning) => (todo = planning.todo_id),
            onTodoAdjust: (adjust) => plan.adjust(adjust, { inProgress: todo }),
          });
          parser.push(full);
          streamed = parser.end();
        });
        expect(streamed?.success).toBe(whole.success);
        if (!whole.success || !streamed?.success) return;
        const wholePlan = statusesAfter((plan) => plan.adjust(whole.data.todo_adjust ?? {}, { inProgress: whole.data.turn_planning?.todo_id }));
        expect(streamedPlan).toBe(wholePlan);
      }),
      { numRuns: 300 },
    );
  });
});

describe('createEnvelopeStreamParser over the JSON scanner', () => {
  it('reads an actions key written without its colon as the whole-text parse does (its later members are no actions)', () => {
    const text = '{"actions" [{"type":"narrate","text":"A"}], "turn_planning": {"todo_id": "t1", "does": "x"}}';
    const { parser, emitted } = recorder();
    parser.push(text);
    expect(parser.error).toBeUndefined();
    expect(parser.end()).toEqual(safeParseTurnEnvelope(text));
    expect(emitted.map((entry) => entry[0])).toEqual(['planning', 'adjust', 'action']);
  });

  it('reads on after a handler that throws when the actions begin', () => {
    const text = JSON.stringify({ todo: 't2', actions: envelope.actions });
    const seen: number[] = [];
    let thrown = false;
    const parser = createEnvelopeStreamParser({
      onTodoAdjust: () => {
        if (!thrown) {
          thrown = true;
          throw new Error('host failed');
        }
      },
      onAction: (_action, index) => seen.push(index),
    });
    expect(() => parser.push(text)).toThrow('host failed');
    parser.push('');
    expect(seen).toEqual([0, 1, 2]);
    expect(parser.end()).toEqual(safeParseTurnEnvelope(text));
  });
});
