import { afterEach, describe, expect, it, vi } from 'vitest';
import { TypedEmitter } from '../src/emitter.js';

type Events = { ping: { n: number }; pong: { n: number } };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TypedEmitter', () => {
  it('delivers to every listener in order, reports a throwing one and goes on, and unsubscribes', () => {
    const errors: unknown[] = [];
    vi.stubGlobal('reportError', (error: unknown) => errors.push(error));
    const emitter = new TypedEmitter<Events>();
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

  it('calls a function subscribed twice twice, and each unsubscribe removes one', () => {
    const emitter = new TypedEmitter<Events>();
    const seen: number[] = [];
    const listener = ({ n }: { n: number }) => seen.push(n);
    const off = emitter.on('ping', listener);
    emitter.on('ping', listener);
    emitter.emit('ping', { n: 1 });
    off();
    emitter.emit('ping', { n: 2 });
    expect(seen).toEqual([1, 1, 2]);
  });

  it('tells onAny listeners every event by name, and says whether anything listens', () => {
    const emitter = new TypedEmitter<Events>();
    expect(emitter.has('pong')).toBe(false);
    const any: string[] = [];
    const off = emitter.onAny((name, payload) => any.push(`${name}:${payload.n}`));
    emitter.emit('ping', { n: 1 });
    emitter.emit('pong', { n: 2 });
    expect(any).toEqual(['ping:1', 'pong:2']);
    expect(emitter.has('pong')).toBe(true);
    off();
    expect(emitter.has('pong')).toBe(false);
  });

  it('a listener added during an emit hears the next emit, not the current one', () => {
    const emitter = new TypedEmitter<Events>();
    const seen: string[] = [];
    emitter.on('ping', ({ n }) => {
      seen.push(`first:${n}`);
      if (n === 1) emitter.on('ping', ({ n: m }) => seen.push(`late:${m}`));
    });
    emitter.emit('ping', { n: 1 });
    emitter.emit('ping', { n: 2 });
    expect(seen).toEqual(['first:1', 'first:2', 'late:2']);
  });
});
