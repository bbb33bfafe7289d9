import type { AdjustResult } from '../envelope/apply.js';
import type { TurnEnvelope } from '../envelope/schema.js';
import { clip } from './turn-prompt.js';

/**
 * What the loop remembers between turns, since each turn's prompt is built afresh (no chat
 * history): one short line per recent turn, and how many turns in a row made no progress.
 *
 * @example
 * ```ts
 * const memory = new TurnMemory(4);
 * memory.record(1, envelope, adjust, 'Open pricing');
 * memory.lines; // ['1 t1 Open pricing [navigate]']
 * ```
 */
export class TurnMemory {
  readonly #size: number;
  #lines: string[] = [];
  #stalled = 0;

  /** `size`: how many turns are remembered (the oldest are forgotten first). */
  constructor(size: number) {
    this.#size = size;
  }

  /**
   * Notes a finished turn: what it worked on and did (`does`, else the todo's `description`: the
   * compact envelope says no more than the todo), and whether it completed or rewrote a todo.
   */
  record(turn: number, envelope: TurnEnvelope, adjust: AdjustResult, description?: string): void {
    const planning = envelope.turn_planning;
    const kinds = envelope.actions.map((action) => (action.type === 'tool' ? action.name : action.type)).join(', ');
    const what = planning?.does || description;
    const line = `${turn} ${planning?.todo_id ?? '-'}${what ? ` ${clip(what, 60)}` : ''} [${kinds}]`;
    this.#lines = this.#size === 0 ? [] : [...this.#lines, line].slice(-this.#size);
    this.#stalled = adjust.completed.length + adjust.replaced.length > 0 ? 0 : this.#stalled + 1;
  }

  /** The remembered lines, oldest first. */
  get lines(): readonly string[] {
    return this.#lines;
  }

  /** Turns in a row without a todo completed or rewritten. */
  get stalled(): number {
    return this.#stalled;
  }
}
