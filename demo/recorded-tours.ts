// The demo's recorded tours: each canned ask (the three suggestions, in English, German and
// Japanese) has a tour the offline model once played, stored as JSON in demo/recorded-tours/
// (written by `RECORD_DEMO_TOURS=1 bash scripts/e2e.sh e2e/demo-replay.spec.ts`). Asking one
// replays it with planloop's `replayTour`: no planning call, no turn call, unless the page changed
// under a step. A tour is fetched like any stored data and validated whole before it plays
// (`parseTour`); one that does not validate is not played (the ask goes to the model).

import { parseTour, type Tour } from 'planloop/loop';
import type { Lang } from './language.js';

/** One canned ask: which tour, in which language, and the words that ask for it. */
export interface CannedAsk {
  tour: 'pricing' | 'try' | 'compare-and-trial';
  lang: Lang;
  ask: string;
}

/** The canned asks: the suggestions (English) and the same asks in German and Japanese. */
export const CANNED_ASKS: readonly CannedAsk[] = [
  { tour: 'pricing', lang: 'en', ask: 'Introduce the pricing page' },
  { tour: 'try', lang: 'en', ask: 'Show me how to try it' },
  { tour: 'compare-and-trial', lang: 'en', ask: 'Compare the plans and start a trial' },
  { tour: 'pricing', lang: 'de', ask: 'Stell mir die Preisseite vor' },
  { tour: 'try', lang: 'de', ask: 'Zeig mir, wie ich es ausprobieren kann' },
  { tour: 'compare-and-trial', lang: 'de', ask: 'Vergleiche die Tarife und starte eine Testphase' },
  { tour: 'pricing', lang: 'ja', ask: '料金ページを紹介して' },
  { tour: 'try', lang: 'ja', ask: '試し方を教えて' },
  { tour: 'compare-and-trial', lang: 'ja', ask: 'プランを比較してトライアルを始めたい' },
];

/** Where a canned ask's tour is stored, relative to the demo's root. */
export function tourFile(ask: CannedAsk): string {
  return `/recorded-tours/${ask.tour}.${ask.lang}.json`;
}

/** The canned ask `task` is, if it is one (case, spacing and a final full stop aside). */
export function cannedAsk(task: string): CannedAsk | undefined {
  const norm = (text: string): string =>
    text
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .replace(/[.。!?！？]+$/u, '')
      .trim();
  const wanted = norm(task);
  return CANNED_ASKS.find((entry) => norm(entry.ask) === wanted);
}

/**
 * The recorded tour for `task`, when it is a canned ask and its tour loads and validates; else
 * `undefined` (the guide then asks the model). A tour that fails validation is reported on the
 * console and not played.
 */
export async function recordedTourFor(task: string, signal?: AbortSignal): Promise<Tour | undefined> {
  const ask = cannedAsk(task);
  if (!ask) return undefined;
  try {
    const response = await fetch(tourFile(ask), signal ? { signal } : {});
    if (!response.ok) return undefined;
    return parseTour(await response.text());
  } catch (error) {
    if (signal?.aborted) throw error;
    console.warn(`The recorded tour for "${task}" was not played:`, error);
    return undefined;
  }
}
