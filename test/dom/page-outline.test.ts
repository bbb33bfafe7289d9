// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { bigPageHtml } from '../../demo/fixtures/big-page.js';
import { ValidationError } from '../../src/errors.js';
import { createLookTools, createRefRegistry, estimateTokens, fill, outlinePage, renderOutline } from '../../src/dom/index.js';
import { lineOf, loadDemo, outlineText } from './fixtures.js';

// happy-dom has no layout: every box counts as visible and in the viewport; CSS, `hidden`,
// aria-hidden and inert still hide. e2e/dom-outline.spec.ts covers sizes and the viewport.

afterEach(() => {
  document.body.replaceChildren();
  document.head.replaceChildren();
});

describe('outlinePage on the demo', () => {
  it('describes the pricing page: landmarks, headings, the tiers and their links, the guide', () => {
    loadDemo().show('commercial');
    const text = outlineText({ registry: createRefRegistry(), maxTokens: 600 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('[e1] banner');
    expect(text).toContain('  [e3] navigation "Site"');
    // A link to a page of this site shows no path (the model clicks it by its ref).
    expect(lineOf(text, 'Pricing')).toMatch(/^ {4}\[e\d+\] link "Pricing"$/);
    expect(text).toMatch(/^\[e\d+\] main #view$/m);
    expect(text).toMatch(/^ {2}\[e\d+\] h1 "Pricing"$/m);
    expect(text).toMatch(/^ {2}\[e\d+\] region "Plans"$/m);
    expect(text).toMatch(/^ {4}\[e\d+\] article #tier-team$/m);
    expect(text).toMatch(/^ {6}\[e\d+\] h2 "Team"$/m);
    expect(lineOf(text, 'Start a 14-day trial')).toMatch(/^ {6}\[e\d+\] link "Start a 14-day trial"$/);
    // The page's prose: the first words under the heading, the prices.
    expect(text).toMatch(/^ {2}\[e\d+\] text "Start free\. Pay per member when your team grows\."$/m);
    expect(text).toMatch(/^ {6}\[e\d+\] text "\$12 per member \/ month"$/m);
    expect(text).toMatch(/^ {2}\[e\d+\] region "Compare the plans"$/m);
    expect(lineOf(text, 'Tour')).toMatch(/tab "Tour" selected$/);
    // The closed settings dialog, the hidden announcement and the templates are not on the page.
    for (const absent of ['Storage', 'Tour speed', 'Start the tour', 'Base URL', 'API key', 'Try Orbitly', 'Not found']) expect(text).not.toContain(absent);
    expect(text).not.toMatch(/more elements? not listed/);
    // Every line starts with a ref the tools take, and no line is cut by a stray quote.
    for (const line of lines) expect(line).toMatch(/^ *\[e\d+\] [a-z0-9]+( "[^"]*")?/);
  });

  it('describes the trial form with its fields, their state and the select options', () => {
    loadDemo().show('try');
    (document.getElementById('trial-name') as HTMLInputElement).value = 'Ada';
    const text = outlineText();
    expect(lineOf(text, 'Your name')).toMatch(/textbox "Your name" value="Ada" required$/);
    expect(lineOf(text, 'Work email')).toMatch(/textbox "Work email" email required$/);
    expect(lineOf(text, 'Plan')).toMatch(/combobox "Plan" value="Team" options=Starter\|Team\|Business$/);
    expect(lineOf(text, 'Start my trial')).toMatch(/button "Start my trial"$/);
  });

  it('fits every demo page into the default budget of 400 tokens: the site whole, the site and guide nearly', () => {
    const demo = loadDemo();
    for (const route of ['home', 'commercial', 'try', 'docs'] as const) {
      demo.show(route);
      const site = outlinePage({ root: document.getElementById('view') as HTMLElement });
      expect(site.omitted, route).toBe(0);
      const page = outlinePage();
      // Every control of the site is listed (what is left out is prose or the guide's).
      const listed = new Set(page.nodes.map((node) => node.element));
      for (const node of site.nodes) if (node.kind === 'control') expect(listed.has(node.element), `${route}: ${node.name}`).toBe(true);
      expect(page.tokens, route).toBeLessThanOrEqual(400);
      expect(page.tokens).toBe(estimateTokens(renderOutline(page)));
    }
  });
});

describe('outlinePage on a 2,000-element page', () => {
  it('stays within the budget, keeps the structure and the first content, says how many it left out', () => {
    document.body.innerHTML = bigPageHtml(2000);
    expect(document.body.querySelectorAll('*').length).toBeGreaterThanOrEqual(2000);
    const outline = outlinePage();
    const text = renderOutline(outline);

    expect(outline.total).toBeGreaterThan(900);
    expect(outline.tokens).toBeLessThanOrEqual(400);
    expect(outline.omitted).toBe(outline.total - outline.nodes.length);
    expect(text).toMatch(/\n *… \d+ more (elements? (not listed|elsewhere)|in e\d+: .+)$/);
    // A share of the budget went to the structure, least nested first: the skeleton, then the sections.
    expect(outline.nodes.filter((node) => node.depth === 0).map((node) => node.role)).toEqual(['banner', 'main', 'contentinfo']);
    expect(text).toMatch(/^ {2}\[e\d+\] navigation "Site"$/m);
    expect(text).toContain('region "Section 4: scheduling topic 4"');
    // The rest went to the content of main, in order: the first section's controls are all in.
    expect(text).toContain('link "a link to its docs"');
    expect(text).toContain('textbox "Field 1" value="value 1"');
    expect(text).toContain('button "More 1" collapsed');
    // Hidden buttons are never listed.
    expect(text).not.toContain('Hidden 1');
  });

  it('puts what is inside main before the rest when there is no layout to measure', () => {
    document.body.innerHTML = `<header><nav aria-label="Top">${'<a href="/x">Nav link</a>'.repeat(40)}</nav></header><main><button>Main action</button></main>`;
    const outline = outlinePage({ maxTokens: 60 });
    const text = renderOutline(outline);
    expect(text).toContain('button "Main action"');
    expect(outline.omitted).toBeGreaterThan(20);
  });
});

describe('outlinePage and prose with a text role', () => {
  it('reads a paragraph with role note (or presentation) as the paragraph it is: a person sees it', () => {
    document.body.innerHTML =
      '<main><h1>Orders</h1><p role="note">Support notice: our team never asks for your password in a chat.</p><p role="presentation">A presentational paragraph is still text a person reads.</p></main>';
    const text = renderOutline(outlinePage());
    expect(text).toContain('Support notice: our team never asks for your password in a chat.');
    expect(text).toContain('A presentational paragraph is still text a person reads.');
  });
});

describe('outlinePage and hidden elements', () => {
  it('leaves out display:none (inline and from a stylesheet), visibility:hidden, hidden, aria-hidden, inert, closed dialogs and details', () => {
    document.head.innerHTML = '<style>.gone { display: none } .ghost { visibility: hidden }</style>';
    document.body.innerHTML = `
      <button>Shown</button>
      <div style="display:none"><button>Inline none</button></div>
      <div class="gone"><button>Sheet none</button></div>
      <div class="ghost"><button>Ghost</button><button style="visibility:visible">Visible in ghost</button></div>
      <p hidden><button>Hidden attr</button></p>
      <div aria-hidden="true"><button>Aria hidden</button></div>
      <div inert><button>Inert</button></div>
      <dialog><button>In closed dialog</button></dialog>
      <dialog open aria-label="Open dialog"><button>In open dialog</button></dialog>
      <details><summary>More</summary><button>In closed details</button></details>
      <details open><summary>Less</summary><button>In open details</button></details>
      <template><button>In template</button></template>
      <input type="hidden" name="csrf" value="x">`;
    const text = outlineText();
    for (const shown of ['Shown', 'Visible in ghost', 'In open dialog', 'In open details']) expect(text).toContain(`"${shown}"`);
    for (const hidden of [
      'Inline none',
      'Sheet none',
      '"Ghost"',
      'Hidden attr',
      'Aria hidden',
      'Inert',
      'In closed dialog',
      'In closed details',
      'In template',
      'csrf',
    ]) {
      expect(text).not.toContain(hidden);
    }
    expect(lineOf(text, 'More')).toMatch(/button "More" collapsed$/);
    expect(lineOf(text, 'Less')).toMatch(/button "Less" expanded$/);
    expect(text).toMatch(/dialog "Open dialog"\n {2}\[e\d+\] button "In open dialog"/);
  });

  it('outlines nothing under a hidden root, and says there is nothing', () => {
    document.body.innerHTML = '<div hidden><section id="inner"><button>Inside</button></section></div>';
    const outline = outlinePage({ root: document.getElementById('inner') as HTMLElement });
    expect(outline.nodes).toEqual([]);
    expect(renderOutline(outline)).toBe('No visible elements.');
  });
});

describe('outlinePage and shadow DOM', () => {
  it('walks open shadow roots, with slotted content where its slot is, and skips unslotted children', () => {
    document.body.innerHTML =
      '<main><pricing-card id="card"><span slot="title">Team plan</span><b>unslotted</b><button slot="action">Buy Team</button></pricing-card></main>';
    const card = document.getElementById('card') as HTMLElement;
    const shadow = card.attachShadow({ mode: 'open' });
    shadow.innerHTML = '<article aria-label="Plan card"><h2><slot name="title"></slot></h2><slot name="action"></slot><nested-part></nested-part></article>';
    const nested = shadow.querySelector('nested-part') as HTMLElement;
    nested.attachShadow({ mode: 'open' }).innerHTML = '<a href="/compare">Compare plans</a><button hidden>Nested hidden</button>';

    const text = outlineText();
    expect(text.split('\n')).toEqual([
      expect.stringMatching(/^\[e\d+\] main$/),
      expect.stringMatching(/^ {2}\[e\d+\] article "Plan card"$/),
      expect.stringMatching(/^ {4}\[e\d+\] h2 "Team plan"$/),
      expect.stringMatching(/^ {4}\[e\d+\] button "Buy Team"$/),
      expect.stringMatching(/^ {4}\[e\d+\] link "Compare plans"$/),
    ]);
  });
});

describe('outlinePage budget and options', () => {
  it('fits any budget, by the estimator it is given, and reports the omitted', () => {
    loadDemo().show('commercial');
    for (const maxTokens of [20, 80, 150, 250]) {
      const outline = outlinePage({ maxTokens });
      expect(outline.tokens, `budget ${maxTokens}`).toBeLessThanOrEqual(maxTokens);
      expect(outline.omitted).toBeGreaterThan(0);
      expect(renderOutline(outline)).toMatch(/… \d+ more (elements? (not listed|elsewhere)|in e\d+: .+)$/);
    }
    // A stricter tokenizer (a token per word and per symbol) gets a shorter outline, still within it.
    const strict = (text: string) => (text.match(/\w+|[^\s\w]/g) ?? []).length;
    const outline = outlinePage({ maxTokens: 150, estimateTokens: strict });
    expect(strict(renderOutline(outline))).toBeLessThanOrEqual(150);
    expect(outline.tokens).toBe(strict(renderOutline(outline)));
  });

  it('over budget keeps the structure, least nested first, and an element with what it is inside', () => {
    loadDemo().show('commercial');
    const outline = outlinePage({ maxTokens: 120 });
    const text = renderOutline(outline);
    for (const kept of ['banner', 'navigation "Site"', 'main #view', 'h1 "Pricing"', 'region "Plans"', 'complementary "Guide"']) expect(text).toContain(kept);
    // Content of main comes before the guide's controls.
    expect(text).toContain('link "Start free"');
    expect(text).not.toContain('button "Show me how to try it"');
    // Every listed element's parent line is listed too (indentation never jumps by more than a level).
    for (let i = 1; i < outline.nodes.length; i += 1) {
      expect((outline.nodes[i] as { depth: number }).depth).toBeLessThanOrEqual((outline.nodes[i - 1] as { depth: number }).depth + 1);
    }
  });

  it('lists extra elements the host includes', () => {
    document.body.innerHTML = '<main><div class="callout" id="promo">Spring offer</div><div class="callout">Unnamed</div></main>';
    expect(outlineText()).not.toContain('promo');
    const text = outlineText({ include: '.callout' });
    expect(text).toMatch(/\[e\d+\] div #promo/);
    expect(text.split('\n')).toHaveLength(3);
    // A selector the browser rejects lists nothing extra rather than throwing.
    expect(outlineText({ include: '::nonsense(' })).not.toContain('div');
  });

  it('leaves out what the host excludes, with everything inside it', () => {
    loadDemo().show('commercial');
    const text = outlineText({ exclude: '#guide, .demo-tag' });
    expect(text).toContain('navigation "Site"');
    expect(text).toContain('h1 "Pricing"');
    expect(text).not.toContain('Guide');
    expect(text).not.toContain('Ask');
    // An invalid selector excludes nothing rather than throwing.
    expect(outlineText({ exclude: '::nonsense(' })).toContain('complementary "Guide"');
  });

  it('outlines only the root it is given', () => {
    loadDemo().show('commercial');
    const text = outlineText({ root: document.getElementById('view') as HTMLElement });
    expect(text.split('\n')[0]).toMatch(/^\[e\d+\] main #view$/);
    expect(text).not.toContain('Guide');
    expect(text).not.toContain('navigation');
  });

  it('refuses bad options with a ValidationError, before touching the page', () => {
    for (const options of [{ maxTokens: 0 }, { maxTokens: Number.NaN }, { maxTokens: '400' }, { root: {} }, { root: 'main' }, { estimateTokens: 4 }]) {
      let error: unknown;
      try {
        outlinePage(options as never);
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(options)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('invalid_input');
      expect((error as Error).message).toMatch(/^outlinePage: /);
    }
  });
});

// Issue 35: the main content's first paragraph and the form in focus come first at the default budget.
describe('outlinePage: the first paragraph and the form in focus', () => {
  const nav = (n: number) => `<nav aria-label="Sections">${Array.from({ length: n }, (_, i) => `<a href="/s${i}">Section number ${i}</a>`).join('')}</nav>`;
  const paragraph = 'The sea rises and falls twice a day, pulled by the moon and, a little less, by the sun.';

  it('lists the first paragraph of main, not a byline or a caption before it, within a tight budget', () => {
    document.body.innerHTML = `${nav(40)}<main><h1>Tides</h1><p>By ANA RUIZ
${' '.repeat(40)}JAN. 13, 2017</p><figure><figcaption>Low tide</figcaption></figure><p>${paragraph}</p><p>Second paragraph that comes after the first one and says more.</p></main>`;
    const text = renderOutline(outlinePage({ maxTokens: 80 }));
    expect(text).toContain('h1 "Tides"');
    expect(text).toContain(`text "${paragraph}"`);
  });

  it('without main or an article, takes the largest of the three prose lines after the main heading', () => {
    document.body.innerHTML = `${nav(40)}<div><h1>Tides</h1><div>Updated today by the coastal desk of the paper</div><div>${paragraph}</div><div>Share this page</div></div>`;
    const text = renderOutline(outlinePage({ maxTokens: 55 }));
    expect(text).toContain(`text "${paragraph}"`);
  });

  it('without main, prose lines under 50 characters after the main heading do not count among the three', () => {
    const medium = 'Software engineer on the coast, mostly working on tide tables.';
    document.body.innerHTML = `${nav(40)}<div><h1>Profile</h1><div>Software engineer based in Knoxville, Tennessee</div><div>Studied computer science at the state university</div><div>${medium}</div><div>${paragraph} It was measured for centuries.</div></div>`;
    const text = renderOutline(outlinePage({ maxTokens: 70 }));
    expect(text).toContain(`text "${paragraph} It was measured for centuries."`);
    expect(text, text).not.toContain(medium);
  });

  it('never takes a form’s text for the content’s first paragraph', () => {
    document.body.innerHTML = `${nav(40)}<main><form aria-label="Newsletter"><p>We send one email a week and never share your address with anyone.</p><label>Email <input type="email"></label></form><p>${paragraph}</p></main>`;
    const text = renderOutline(outlinePage({ maxTokens: 90 }));
    expect(text).toContain(`text "${paragraph}"`);
  });

  it('redacts a secret in the first paragraph as the secret rule says', () => {
    document.body.innerHTML = `${nav(40)}<main><h1>Billing</h1><p>Your card 4242 4242 4242 4242 is on file; change it in the form below whenever you like.</p></main>`;
    const text = renderOutline(outlinePage({ maxTokens: 80 }));
    expect(text).toContain('text "Your card [secret] is on file;');
    expect(text).not.toContain('4242');
  });

  it('lists every field of the form in focus, writing sibling fields on one line when it must; hints keep the secret rule, refs still work, what is left out is summarised and expands', async () => {
    const fields = Array.from({ length: 26 }, (_, i) =>
      i === 3
        ? '<label>Answer number 3 <input name="a3" aria-describedby="h3"></label><span id="h3">Paste your key sk-live-9f8Ahd7s6D5f4g3h2j1k here</span>'
        : `<label>Answer number ${i} <input name="a${i}"></label>`,
    ).join('');
    document.body.innerHTML = `${nav(60)}<main><h1>Survey</h1><p>${paragraph}</p><form aria-label="Survey">${fields}<button>Send</button></form></main>`;
    (document.querySelector('input[name=a0]') as HTMLInputElement).focus();
    const registry = createRefRegistry();
    const outline = outlinePage({ registry });
    const text = renderOutline(outline);
    expect(outline.tokens).toBeLessThanOrEqual(400);
    expect(outline.joined).toBe(true);
    for (let i = 0; i < 26; i += 1) expect(text).toContain(`"Answer number ${i}"`);
    expect(text).toMatch(/^ +textboxes: e\d+ "Answer number 0"/m);
    expect(text).not.toContain('sk-live');
    expect(text).toContain('[secret]');
    expect(text).toContain(`text "${paragraph}"`);
    // The navigation's links are left out with a line saying so, and expand shows them.
    const summary = /… (\d+) more in (e\d+): \d+ links/.exec(text);
    expect(summary, text).not.toBeNull();
    const expanded = createLookTools({ registry, maxTokens: 2000 }).expand.run({ target: summary?.[2] });
    expect(expanded).toContain('link "Section number 59"');
    // A ref written on a joined line is a ref like any other.
    const ref = /e\d+(?= "Answer number 5")/.exec(text)?.[0];
    const filled = await fill(ref, 'forty-two', { registry });
    expect(filled.ok).toBe(true);
    expect((document.querySelector('input[name=a5]') as HTMLInputElement).value).toBe('forty-two');
  });
});
