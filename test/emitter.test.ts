import { describe, expect, it } from 'vitest';
import { TypedEmitter } from '../src/emitter.js';

type Events = { ping: { n: number }; pong: { n: number } };

describe('TypedEmitter', () => {
  it('delivers to every listener in order, isolates a throwing one, and unsubscribes', () => {
    const errors: unknown[] = [];
    const emitter = new TypedEmitter<Events>({ onListenerError: (error) => errors.push(error) });
    const seen: string[] = [];
    emitter.on('ping', () => {
      throw new Error('listener bug');
    });
    const off = emitter.on('ping', ({ n }) => seen.push(`a${n}`));
    emitter.on('ping', ({ n }) => seen.push(`b${n}`));
    emitter.emit('ping', { n: 1 });
    off();
    off();
    emitter.emit('ping', { n: 2 });
    expect(seen).toEqual(['a1', 'b1', 'b2']);
    expect(errors).toHaveLength(2);
  });

  it('tells onAny listeners every event by name, once() listeners once', () => {
    const emitter = new TypedEmitter<Events>();
    const any: string[] = [];
    const once: number[] = [];
    emitter.onAny((name, payload) => any.push(`${name}:${payload.n}`));
    emitter.once('pong', ({ n }) => once.push(n));
    emitter.emit('ping', { n: 1 });
    emitter.emit('pong', { n: 2 });
    emitter.emit('pong', { n: 3 });
    expect(any).toEqual(['ping:1', 'pong:2', 'pong:3']);
    expect(once).toEqual([2]);
    expect(emitter.has('pong')).toBe(true);
  });

  it('in ordered mode, an emit from a listener waits until every listener has the current one', () => {
    const run = (ordered: boolean) => {
      const emitter = new TypedEmitter<Events>({ ordered });
      const seen: string[] = [];
      emitter.on('ping', ({ n }) => {
        seen.push(`first:${n}`);
        if (n === 1) emitter.emit('ping', { n: 2 });
      });
      emitter.on('ping', ({ n }) => seen.push(`second:${n}`));
      emitter.emit('ping', { n: 1 });
      return seen;
    };
    expect(run(true)).toEqual(['first:1', 'second:1', 'first:2', 'second:2']);
    expect(run(false)).toEqual(['first:1', 'first:2', 'second:2', 'second:1']);
  });
});
