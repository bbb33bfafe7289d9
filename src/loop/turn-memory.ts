import type { AdjustResult } from '../envelope/apply.js';
import type { TurnEnvelope } from '../envelope/schema.js';
import { clip } from './turn-prompt.js';

/**
 * What the loop remembers between turns, since each turn's prompt is built afresh (no chat
 * history): one short line per recent turn, oldest first, and how many turns in a row made no
 * progress. A line is the model's own record: the todo it named and the kinds of actions it
 * took, and `does` when it wrote one (the full envelope); the todo's description is not repeated
 * (it is in the plan while the todo is open). The turn prompt shows the lines inside the
 * model's own `<plan>` block.
 *
 * @example
 * ```ts
 * const memory = new TurnMemory(4);
 * declare const envelope: TurnEnvelope; // {"todo":"t1","actions":[navigate, narrate]}
 * memory.record(envelope, plan.adjust(envelope.todo_adjust ?? {}));
 * memory.lines; // ['t1 navigate, narrate']
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
   * Notes a finished turn: the todo it named (`-` for none), its actions' kinds (a tool by its
   * name), what it said it does (`does`, clipped to 60 characters), and whether it completed or
   * rewrote a todo.
   */
  record(envelope: TurnEnvelope, adjust: AdjustResult): void {
    const planning = envelope.turn_planning;
    const kinds = envelope.actions.map((action) => (action.type === 'tool' ? action.name : action.type)).join(', ');
    const does = planning?.does ? ` (${clip(planning.does, 60)})` : '';
    const line = `${planning?.todo_id ?? '-'} ${kinds || 'nothing'}${does}`;
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
