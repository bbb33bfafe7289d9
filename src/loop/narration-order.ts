import type { Observation } from '../events.js';
import type { NarrateDeltaContext, UserChannels } from './dispatch-action.js';
import { clip } from './turn-prompt.js';

/** A turn's narrations while their words stream (see {@link createNarrationOrder}). */
export interface NarrationOrder {
  /** New words of the narrate at action `index` (its `target` when the model wrote it first). */
  stream(delta: string, index: number, target: string | undefined): void;
  /** The narrate at `index` ran whole (its `narrate` call follows): its words are no longer cut off. */
  dispatched(index: number): void;
  /** What the user already saw of narrates that never completed, one line each: the model must not say it again. */
  cutOff(): string[];
}

/** What {@link createNarrationOrder} needs of its turn. */
export interface NarrationOrderInput {
  /** The host's `user.narrateDelta` (none: nothing is streamed). */
  narrateDelta: UserChannels['narrateDelta'];
  /** The context `narrateDelta` gets for the narrate at `index`, whose words so far are `text`. */
  context: (index: number, text: string) => NarrateDeltaContext;
  /** Runs `step` once the actions queued so far have finished. */
  after: (step: () => void) => void;
  /** Whether the turn was refused, cancelled or the run stopped: no more words are shown. */
  stopped: () => boolean;
  /** A failing `narrateDelta`, as an observation the model hears of. */
  onFailure: (observation: Observation) => void;
}

/**
 * The order of a turn's narrated words: a narrate's words go to `narrateDelta` as they stream, but
 * not before the actions ahead of it have finished (until then they are kept, and shown at once
 * when its turn comes), so the user reads them in the order the model wrote the actions. A
 * `narrateDelta` that throws is heard of once and gets no more words of that narrate.
 *
 * @example
 * ```ts
 * declare const input: NarrationOrderInput; // the turn's (see playTurn)
 * const narrations = createNarrationOrder(input);
 * narrations.stream('These are ', 1, '#pricing'); // shown once action 0 has finished
 * ```
 */
export function createNarrationOrder(input: NarrationOrderInput): NarrationOrder {
  const narrations = new Map<number, { open: boolean; failed: boolean; text: string; target: string | undefined; dispatched: boolean }>();

  const show = (index: number, delta: string): void => {
    const narration = narrations.get(index);
    const onDelta = input.narrateDelta;
    if (!narration || !onDelta || narration.failed || delta === '') return;
    try {
      onDelta(delta, narration.target, input.context(index, narration.text));
    } catch (error) {
      // A failing bubble must not end the turn: the model hears of it, like of a failing narrate.
      narration.failed = true;
      input.onFailure({ kind: 'tool-error', name: 'narrate', summary: `narrate failed: ${clip(error instanceof Error ? error.message : error)}` });
    }
  };

  return {
    stream(delta, index, target) {
      if (input.stopped() || !input.narrateDelta) return;
      let narration = narrations.get(index);
      if (!narration) {
        const entry = { open: false, failed: false, text: '', target, dispatched: false };
        narrations.set(index, entry);
        narration = entry;
        input.after(() => {
          if (input.stopped()) return;
          entry.open = true;
          show(index, entry.text); // the words that came while earlier actions ran
        });
      }
      narration.text += delta;
      narration.target = target ?? narration.target;
      if (narration.open) show(index, delta);
    },
    dispatched(index) {
      const narration = narrations.get(index);
      if (narration) narration.dispatched = true;
    },
    cutOff() {
      return [...narrations.values()]
        .filter((narration) => narration.open && !narration.dispatched && narration.text)
        .map((narration) => `narrate "${clip(narration.text, 60)}" (cut off)`);
    },
  };
}
