/*
 * What a person sees first on a page, judged in the page by plain DOM and layout calls, with no
 * planloop code: the benchmark (bench/first-view.ts) and the e2e tests (e2e/outline-corpus.spec.ts)
 * hold the outline against it.
 *
 * - A first-viewport control: an element a person can act on (a link with an href, a button, an
 *   input other than hidden, a select, a textarea, a summary, an element with a widget role, a
 *   contenteditable or a tabindex of 0 or more), not disabled by `inert` or hidden by
 *   `aria-hidden="true"` on it or an ancestor, whose box is at least 2×2 px and intersects the
 *   viewport, which `checkVisibility` (opacity and visibility included) says is drawn, and which is
 *   on top at one of five points of its visible part (the centre and four points inset by a
 *   quarter): `elementFromPoint` there is the element, inside it, or its label.
 * - A visible form: a `<form>` (or role=form) whose box intersects the viewport and is drawn; its
 *   fields are its inputs (not hidden, submit, reset, button or image), selects and textareas that
 *   are drawn (anywhere on the page: a form a person starts filling is filled to its end).
 * - The first paragraph: in the first drawn `main` (else `article`), the first drawn `<p>` with at
 *   least 50 characters of text, outside any form (a form's texts are its fields' hints); without
 *   either, the largest of the first three such paragraphs after the main heading (the first drawn
 *   h1). None when the page has no such paragraph.
 *
 * The judged elements are kept on `globalThis.__firstView` for the caller's next evaluate.
 */

/** What {@link judgeFirstView} found, as counts and short descriptions (the elements stay in the page). */
export interface FirstViewJudgement {
  viewport: { width: number; height: number };
  /** Controls in the first viewport, as `tag "text"` for reports. */
  controls: string[];
  /** Fields of the visible forms. */
  fields: string[];
  /** The first paragraph's first words, or `null` when the page has none. */
  paragraph: string | null;
}

/** The elements judged, kept in the page between evaluates. */
export interface FirstViewElements {
  controls: Element[];
  fields: Element[];
  paragraph: Element | null;
}

/**
 * Judges the page it runs in (pass it to `page.evaluate`): see the definitions above.
 *
 * @example
 * ```ts
 * const judged = await page.evaluate(judgeFirstView);
 * judged.controls.length; // controls a person sees in the first viewport
 * ```
 */
export function judgeFirstView(): FirstViewJudgement {
  const width = window.innerWidth;
  const height = window.innerHeight;
  const WIDGET =
    'button,link,checkbox,radio,switch,tab,menuitem,menuitemcheckbox,menuitemradio,option,combobox,textbox,searchbox,slider,spinbutton,treeitem'.split(',');
  const selector = [
    'a[href]',
    'button',
    'input:not([type=hidden])',
    'select',
    'textarea',
    'summary',
    '[contenteditable=""]',
    '[contenteditable=true]',
    '[tabindex]:not([tabindex^="-"])',
    ...WIDGET.map((role) => `[role=${role}]`),
  ].join(',');
  const drawn = (element: Element): boolean => {
    const box = element.getBoundingClientRect();
    return box.width >= 2 && box.height >= 2 && element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  };
  const inViewport = (box: DOMRect): boolean => box.right > 0 && box.bottom > 0 && box.left < width && box.top < height;
  const text = (element: Element): string => ((element as HTMLElement).innerText ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
  const onTop = (element: Element): boolean => {
    const box = element.getBoundingClientRect();
    const left = Math.max(0, box.left);
    const right = Math.min(width, box.right);
    const top = Math.max(0, box.top);
    const bottom = Math.min(height, box.bottom);
    const w = right - left;
    const h = bottom - top;
    const points = [
      [0.5, 0.5],
      [0.25, 0.25],
      [0.75, 0.25],
      [0.25, 0.75],
      [0.75, 0.75],
    ] as const;
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(left + w * x, top + h * y);
      if (!hit) continue;
      if (hit === element || element.contains(hit)) return true;
      const label = hit.closest('label');
      if (label && (label as HTMLLabelElement).control === element) return true;
    }
    return false;
  };
  const controls: Element[] = [];
  for (const element of document.querySelectorAll(selector)) {
    if (element.closest('[aria-hidden=true], [inert]')) continue;
    if (!drawn(element) || !inViewport(element.getBoundingClientRect()) || !onTop(element)) continue;
    controls.push(element);
  }
  const fields: Element[] = [];
  for (const form of document.querySelectorAll('form, [role=form]')) {
    if (!drawn(form) || !inViewport(form.getBoundingClientRect())) continue;
    for (const field of form.querySelectorAll('input, select, textarea')) {
      if (field.localName === 'input' && /^(hidden|submit|reset|button|image)$/i.test((field as HTMLInputElement).type)) continue;
      if (field.closest('[aria-hidden=true], [inert]') || !drawn(field) || fields.includes(field)) continue;
      fields.push(field);
    }
  }
  const paragraphs = (within: ParentNode): HTMLElement[] =>
    [...within.querySelectorAll('p')].filter((p) => drawn(p) && !p.closest('form') && text(p).length >= 50) as HTMLElement[];
  const content = [...document.querySelectorAll('main, [role=main]')].find(drawn) ?? [...document.querySelectorAll('article, [role=article]')].find(drawn);
  let paragraph: Element | null = null;
  if (content) paragraph = paragraphs(content)[0] ?? null;
  else {
    const h1 = [...document.querySelectorAll('h1')].find(drawn);
    if (h1) {
      const after = paragraphs(document)
        .filter((p) => h1.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING)
        .slice(0, 3);
      paragraph = after.reduce<HTMLElement | null>((largest, p) => (!largest || text(p).length > text(largest).length ? p : largest), null);
    }
  }
  const elements: FirstViewElements = { controls, fields, paragraph };
  (globalThis as unknown as { __firstView: FirstViewElements }).__firstView = elements;
  const describe = (element: Element) =>
    `${element.localName} "${(text(element) || element.getAttribute('aria-label') || element.getAttribute('placeholder') || element.id).slice(0, 40)}"`;
  return {
    viewport: { width, height },
    controls: controls.map(describe),
    fields: fields.map(describe),
    paragraph: paragraph ? text(paragraph).slice(0, 60) : null,
  };
}

/** Of the judged elements (see {@link judgeFirstView}), which an outline lists. */
export interface FirstViewListed {
  controls: number;
  fields: number;
  /** Whether the first paragraph is listed; `null` when the page has none. */
  paragraph: boolean | null;
  /** What was judged but not listed, for reports. */
  missing: string[];
}

/**
 * Which of the judged elements `listed` (an outline's elements) covers: a control or field is
 * listed when its element is, or a listed control contains it or sits inside it; the paragraph
 * when it is, or a listed text line contains it or sits inside it. Run in the page after
 * {@link judgeFirstView}.
 *
 * @example
 * ```ts
 * await page.evaluate(judgeFirstView);
 * const listed = await page.evaluate(() => listedOfFirstView(outlinePage().nodes.map((node) => node.element)));
 * ```
 */
export function listedOfFirstView(listed: readonly Element[], kinds?: readonly string[]): FirstViewListed {
  const judged = (globalThis as unknown as { __firstView: FirstViewElements }).__firstView;
  const all = new Set(listed);
  const kindOf = new Map(listed.map((element, i) => [element, kinds?.[i]]));
  const covered = (element: Element, kind: string): boolean => {
    if (all.has(element)) return true;
    for (let at = element.parentElement; at; at = at.parentElement) if (all.has(at) && (!kinds || kindOf.get(at) === kind)) return true;
    for (const other of listed) if ((!kinds || kindOf.get(other) === kind) && element.contains(other)) return true;
    return false;
  };
  const describe = (element: Element) =>
    `${element.localName} "${((element as HTMLElement).innerText || element.getAttribute('aria-label') || element.id || '').replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
  const missing: string[] = [];
  let controls = 0;
  for (const element of judged.controls) {
    if (covered(element, 'control')) controls += 1;
    else missing.push(`control ${describe(element)}`);
  }
  let fields = 0;
  for (const element of judged.fields) {
    if (covered(element, 'control')) fields += 1;
    else missing.push(`field ${describe(element)}`);
  }
  const paragraph = judged.paragraph ? covered(judged.paragraph, 'text') : null;
  if (paragraph === false) missing.push(`paragraph ${describe(judged.paragraph as Element)}`);
  return { controls, fields, paragraph, missing };
}
