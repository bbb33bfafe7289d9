import { describe, expect, it } from 'vitest';
import { formatReference, isReferenceString, parseReferenceExpression, readPath } from '../../src/graph/reference.js';

describe('references', () => {
  it('parses the dagger and the ASCII spelling alike', () => {
    const dagger = parseReferenceExpression('†state.flights.0.price');
    const ascii = parseReferenceExpression('$state.flights.0.price');
    expect(dagger).toEqual(ascii);
    expect(dagger).toEqual({ ok: true, expression: { op: 'single', refs: [{ root: 'state', path: ['flights', '0', 'price'] }] } });
  });

  it('parses fallbacks and gates, spaces or not', () => {
    const or = parseReferenceExpression('†state.receipt||$state.error');
    expect(or.ok && or.expression.op).toBe('or');
    const and = parseReferenceExpression('†state.a && †input.b');
    expect(and.ok && and.expression.refs.map(formatReference)).toEqual(['state.a', 'input.b']);
    expect(and.ok && and.expression.op).toBe('and');
  });

  it('tells references from literals', () => {
    expect(isReferenceString('†input.amount')).toBe(true);
    expect(isReferenceString('  $state.x')).toBe(true);
    expect(isReferenceString('$50')).toBe(false);
    expect(isReferenceString('$inputs are fun')).toBe(false);
    expect(isReferenceString('price † note')).toBe(false);
    expect(isReferenceString(42)).toBe(false);
  });

  it('explains malformed references', () => {
    expect(parseReferenceExpression('†state.a || †state.b && †state.c')).toMatchObject({ ok: false, message: expect.stringContaining('mixes') });
    expect(parseReferenceExpression('†output.x')).toMatchObject({ ok: false, unsafe: false });
    expect(parseReferenceExpression('$state')).toMatchObject({ ok: false });
    expect(parseReferenceExpression('†state.a..b')).toMatchObject({ ok: false, message: expect.stringContaining('invalid path segment') });
  });

  it('refuses prototype segments anywhere in a path', () => {
    for (const text of ['†state.__proto__.x', '†input.a.constructor', '$state.x.prototype', '†state.ok || †state.__proto__']) {
      expect(parseReferenceExpression(text)).toMatchObject({ ok: false, unsafe: true });
    }
  });

  it('reads own properties only', () => {
    expect(readPath({ a: { b: [1, 2] } }, ['a', 'b', '1'])).toEqual({ found: true, value: 2 });
    expect(readPath({ a: {} }, ['a', 'toString'])).toEqual({ found: false, value: undefined });
    expect(readPath({ a: null }, ['a'])).toEqual({ found: true, value: null });
    expect(readPath({ a: null }, ['a', 'b']).found).toBe(false);
  });
});

describe('parseReferenceExpression on values that are not text', () => {
  it.each([null, undefined, 7, ['†state.a'], { ref: '†state.a' }])('%j is not a reference, reported, not thrown', (value) => {
    expect(parseReferenceExpression(value as never)).toEqual({
      ok: false,
      unsafe: false,
      message: expect.stringMatching(/is not a reference: a reference is a string/),
    });
  });
});
