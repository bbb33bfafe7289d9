/*
 * One read-only pass over a page (an outline): nothing on the page changes while it runs, so
 * what is read of an element (its computed style, whether an ancestor hides it, how its text is
 * drawn) is the same every time it is asked, and is read once. Outside a pass nothing is kept:
 * `accessibleName` or `unseenReason` called on their own read the page afresh.
 */

/** What one pass keeps: a table of per-element answers for each question asked. */
interface Pass {
  styles: WeakMap<Element, CSSStyleDeclaration | undefined>;
  tables: Map<string, WeakMap<Element, unknown>>;
  shared: Map<string, unknown>;
  /** What to undo when the pass ends (a style sheet added for hit tests). */
  undo: Array<() => void>;
}

let current: Pass | undefined;

/**
 * Runs `read` as one pass: per-element answers asked through {@link passCached} are kept until it
 * returns. A pass inside a pass is the outer one. `read` must not change the page.
 *
 * @example
 * ```ts
 * const outline = duringReadPass(() => outlinePage()); // outlinePage runs as one pass already
 * ```
 */
export function duringReadPass<T>(read: () => T): T {
  if (current) return read();
  const pass: Pass = { styles: new WeakMap(), tables: new Map(), shared: new Map(), undo: [] };
  current = pass;
  try {
    return read();
  } finally {
    current = undefined;
    for (const undo of pass.undo.reverse()) undo();
  }
}

/**
 * The computed style of `element`, read once per pass (a computed style object is live: keeping
 * it changes no answer). Outside a pass: `undefined`, read it yourself.
 *
 * @example
 * ```ts
 * const element = document.querySelector('main')!;
 * passStyle(element, () => getComputedStyle(element));
 * ```
 */
export function passStyle(element: Element, read: () => CSSStyleDeclaration | undefined): CSSStyleDeclaration | undefined {
  if (!current) return read();
  const styles = current.styles;
  if (styles.has(element)) return styles.get(element);
  const style = read();
  styles.set(element, style);
  return style;
}

/**
 * `compute(element)`, kept per element in table `table` for the rest of the pass; computed each
 * time outside a pass.
 *
 * @example
 * ```ts
 * const heading = document.querySelector('h1')!;
 * passCached('seen', heading, (element) => isSeen(element));
 * ```
 */
export function passCached<T>(table: string, element: Element, compute: (element: Element) => T): T {
  if (!current) return compute(element);
  let known = current.tables.get(table) as WeakMap<Element, T> | undefined;
  if (!known) {
    known = new WeakMap();
    current.tables.set(table, known);
  }
  if (known.has(element)) return known.get(element) as T;
  const value = compute(element);
  known.set(element, value);
  return value;
}

/**
 * One value for the whole pass (a checker with caches of its own), made by `make` on first use;
 * made each time outside a pass.
 *
 * @example
 * ```ts
 * const colours = passShared('colours', () => new Map<string, number[]>());
 * ```
 */
export function passShared<T>(key: string, make: () => T): T {
  if (!current) return make();
  if (current.shared.has(key)) return current.shared.get(key) as T;
  const value = make();
  current.shared.set(key, value);
  return value;
}

/**
 * Runs `undo` when the current pass ends (before it returns), or now when there is none: for what
 * a check puts in place for the pass only, such as a style sheet that makes every element hit-testable.
 *
 * @example
 * ```ts
 * const sheet = new CSSStyleSheet();
 * document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
 * atPassEnd(() => (document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet)));
 * ```
 */
export function atPassEnd(undo: () => void): void {
  if (current) current.undo.push(undo);
  else undo();
}

/**
 * Whether a pass is running.
 *
 * @example
 * ```ts
 * inReadPass(); // false outside outlinePage and the checks
 * ```
 */
export function inReadPass(): boolean {
  return current !== undefined;
}
