// The guide on a narrow screen (a phone, a small tablet): a bottom sheet instead of a column. On
// first load it is a launcher bar ("Ask the guide"); opened, it holds the whole guide; while a
// tour is planned, announced or run it shows the plan and Stop (style.css decides what that
// leaves out), so both stay in view while the page above is toured. It tells the page how much
// of the viewport it covers (`--guide-cover`), so that scrolling to a highlighted element and
// placing the narration bubble keep clear of it.

/** What the guide is doing, as demo/guide.ts reports it. */
export type GuideState = 'idle' | 'planning' | 'announcing' | 'running';

/** The sheet's controls. */
export interface GuideSheet {
  /** Follows the guide: a tour under way keeps the sheet open on the plan and Stop. */
  follow(state: GuideState): void;
  /** Pixels of the viewport's bottom the sheet covers now (0 when the guide is a column). */
  cover(): number;
  /** Redraws the launcher's words (the demo's language changed). */
  refresh(): void;
}

/**
 * Makes `guide` a bottom sheet whenever `narrow` matches, opened and hidden with `toggle`.
 *
 * @example
 * ```ts
 * const sheet = createGuideSheet({ guide, toggle, narrow: matchMedia('(max-width: 900px)') });
 * ```
 */
export function createGuideSheet(options: {
  guide: HTMLElement;
  toggle: HTMLButtonElement;
  narrow: MediaQueryList;
  /** The launcher's words in the demo's language now. Default: English. */
  words?: () => { open: string; hide: string };
}): GuideSheet {
  const words = options.words ?? (() => ({ open: 'Ask the guide', hide: 'Hide' }));
  const { guide, toggle, narrow } = options;
  let open = false;
  let state: GuideState = 'idle';

  const cover = (): number => {
    if (!narrow.matches || getComputedStyle(guide).position !== 'fixed') return 0;
    return Math.max(0, Math.round(window.innerHeight - guide.getBoundingClientRect().top));
  };
  const measure = (): void => {
    document.documentElement.style.setProperty('--guide-cover', `${cover()}px`);
  };
  const render = (): void => {
    // The launcher exists only where the guide is a sheet (it is hidden in the HTML).
    toggle.hidden = !narrow.matches;
    guide.dataset.sheet = state !== 'idle' ? 'tour' : open ? 'open' : 'closed';
    toggle.setAttribute('aria-expanded', String(open || state !== 'idle'));
    toggle.textContent = open ? words().hide : words().open;
    measure();
  };

  toggle.addEventListener('click', () => {
    open = !open;
    render();
  });
  // Escape hides an open sheet, as it would close a menu, when nothing else took the key.
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || !open || state !== 'idle' || !narrow.matches) return;
    if (event.target instanceof Element && event.target.closest('dialog[open]')) return;
    open = false;
    render();
    toggle.focus();
  });
  new ResizeObserver(measure).observe(guide);
  window.addEventListener('resize', measure);
  narrow.addEventListener('change', render);
  render();

  return {
    follow(next) {
      // A tour that started (asked from the open sheet, or resumed after a reload) leaves the sheet
      // open when it ends, on its result.
      if (next !== 'idle') open = true;
      state = next;
      render();
    },
    cover,
    refresh: render,
  };
}
