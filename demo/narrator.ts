// The narration bubble: shows the guide's words next to the element they are about, highlights
// that element, and waits long enough to read (or for "Next"). Model text only ever goes in through
// textContent, and the CSS `target` the model sends is only ever used as a selector inside the site.
//
// Screen readers and keyboards: the words are announced once, by a live region of their own that
// is never hidden (`data-live` on the bubble names it), not by the bubble, so the Next button's
// label is not read after every narration. The focus follows the tour without a hunt: when a
// narration shows while the focus rests where the tour left it (the guide's Stop, the bubble, or
// nowhere), it moves to Next; when the bubble hides with the focus in it, the focus goes back to
// the resting place (`restFocusOn`), never to <body>. Focus the user put elsewhere stays there.

import { resolveTarget } from 'planloop/dom';
import type { Pace } from './pace.js';

/** Shows narration; `say` resolves when the user has had time to read it. */
export interface Narrator {
  say(text: string, target: string | undefined, signal?: AbortSignal): Promise<{ shown: boolean; target?: string }>;
  /** Removes the bubble and any highlight. */
  clear(): void;
  /**
   * Where the focus rests between narrations (the guide's Stop), and what else counts as resting
   * (say, the plan panel's status line, where the panel leaves the focus after an approval whose
   * Next has gone): see the top of this file.
   */
  restFocusOn(element: HTMLElement | null, alsoResting?: (active: Element) => boolean): void;
  /** The language of what is said next (`lang` on the bubble) and the Next button's label. */
  setLanguage(lang: string, nextLabel: string): void;
}

/**
 * The element a model's `target` names inside `scope`: a ref from the page outline the turn prompt
 * carried (`e12`), or a CSS selector; `null` when it names nothing visible there.
 */
export function findTarget(scope: Element, target: string | undefined): HTMLElement | null {
  if (!target?.trim()) return null;
  // Narration only highlights: the safe CSS subset is allowed besides refs (a model may write `#pricing`).
  const found = resolveTarget(target, { root: scope, selectors: true });
  return found.ok ? (found.element as HTMLElement) : null;
}

export function createNarrator(options: {
  bubble: HTMLElement;
  scope: HTMLElement;
  pace: () => Pace;
  /** Pixels at the bottom of the viewport something else covers (the guide's sheet on a phone). Default none. */
  bottomInset?: () => number;
}): Narrator {
  const { bubble, scope } = options;
  const text = bubble.querySelector('.bubble-text') as HTMLElement;
  const next = bubble.querySelector('.bubble-next') as HTMLButtonElement;
  const live = document.getElementById(bubble.dataset.live ?? '');
  let highlighted: HTMLElement | null = null;
  let rest: HTMLElement | null = null;
  let alsoRests: (active: Element) => boolean = () => false;
  /** What the bubble points at: it follows when the page scrolls or resizes (the bubble is fixed). */
  let pointedAt: HTMLElement | null = null;

  /** Whether the focus is where the tour left it: nowhere, on the resting place, or in the bubble. */
  const focusResting = (): boolean => {
    const active = document.activeElement as HTMLElement | null;
    return !active || active === document.body || active === rest || bubble.contains(active) || alsoRests(active);
  };

  const unhighlight = (): void => {
    highlighted?.classList.remove('guide-highlight');
    highlighted = null;
  };

  const place = (element: HTMLElement | null): void => {
    pointedAt = element;
    if (!element) {
      bubble.dataset.docked = 'true';
      bubble.style.left = '';
      bubble.style.top = '';
      return;
    }
    bubble.dataset.docked = 'false';
    const rect = element.getBoundingClientRect();
    const width = bubble.offsetWidth || 320;
    const height = bubble.offsetHeight || 80;
    const left = Math.min(Math.max(8, rect.left), Math.max(8, document.documentElement.clientWidth - width - 8));
    // Below the element when it fits in the part of the viewport left free (the guide's sheet may
    // cover the bottom), else above it, else over the element's lower edge, inside the free part.
    const free = window.innerHeight - (options.bottomInset?.() ?? 0);
    let top = rect.bottom + 12;
    if (top + height > free - 8) {
      const above = rect.top - height - 12;
      top = above >= 8 ? above : Math.max(8, Math.min(rect.bottom + 12, free - height - 8));
    }
    // Viewport coordinates: the bubble is position: fixed (it sits in the guide's DOM, for the Tab
    // order, and fixed keeps it out of the guide's box).
    bubble.style.left = `${left}px`;
    bubble.style.top = `${top}px`;
  };
  const follow = (): void => {
    if (!bubble.hidden && pointedAt) place(pointedAt);
  };
  window.addEventListener('scroll', follow, { passive: true });
  window.addEventListener('resize', follow);

  return {
    async say(words, target, signal) {
      unhighlight();
      const element = findTarget(scope, target);
      if (element) {
        element.scrollIntoView({ block: 'center', behavior: 'instant' as ScrollBehavior });
        element.classList.add('guide-highlight');
        highlighted = element;
      }
      const resting = focusResting();
      text.textContent = words;
      if (live) {
        // Emptied first, so that the same words twice in a row are announced twice.
        live.textContent = '';
        live.lang = bubble.lang;
        live.textContent = words;
      }
      if (target) bubble.dataset.target = target;
      else delete bubble.dataset.target;
      bubble.hidden = false;
      place(element);
      if (resting && document.activeElement !== next) next.focus({ preventScroll: true });
      await waitToRead(options.pace().readMs(words), next, signal);
      return element ? { shown: true, target: target as string } : { shown: true };
    },
    clear() {
      unhighlight();
      pointedAt = null;
      const hadFocus = bubble.contains(document.activeElement);
      bubble.hidden = true;
      text.textContent = '';
      if (hadFocus && rest && !rest.hidden && rest.offsetParent !== null) rest.focus({ preventScroll: true });
    },
    restFocusOn(element, alsoResting) {
      rest = element;
      alsoRests = alsoResting ?? (() => false);
    },
    setLanguage(lang, nextLabel) {
      bubble.lang = lang;
      const label = next.querySelector('.bubble-next-label');
      if (label) label.textContent = nextLabel;
    },
  };
}

/** Resolves after `ms`, on a click of `next`, or (rejecting) on abort. */
function waitToRead(ms: number, next: HTMLButtonElement, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      next.removeEventListener('click', done);
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = (): void => {
      clearTimeout(timer);
      next.removeEventListener('click', done);
      reject(signal?.reason);
    };
    const timer = setTimeout(done, ms);
    next.addEventListener('click', done);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
