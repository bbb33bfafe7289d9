// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { createRefRegistry, outlinePage, renderOutline, resolveTarget, type RefRegistry } from '../../src/dom/index.js';
import { lineOf, loadDemo, refIn } from './fixtures.js';

afterEach(() => {
  document.body.replaceChildren();
});

function setUp(html: string): { registry: RefRegistry; ref: (name: string) => string } {
  document.body.innerHTML = html;
  const registry = createRefRegistry();
  const text = renderOutline(outlinePage({ registry }));
  return { registry, ref: (name) => refIn(lineOf(text, name)) };
}

describe('resolveTarget with refs', () => {
  it('resolves a ref to its element, however the model writes it', () => {
    const { registry, ref } = setUp('<main><button id="go">Go</button></main>');
    const go = document.getElementById('go');
    const id = ref('Go');
    for (const written of [id, `[${id}]`, ` ${id.toUpperCase()} `, `#${id}`, `ref=${id}`]) {
      expect(resolveTarget(written, { registry }), written).toEqual({ ok: true, element: go, ref: id, via: 'ref' });
    }
  });

  it('says not-found, with what to do, when the element is gone', () => {
    const { registry, ref } = setUp('<main><button id="buy">Start free trial</button></main>');
    const id = ref('Start free trial');
    document.getElementById('buy')?.remove();
    expect(resolveTarget(id, { registry })).toEqual({
      ok: false,
      reason: 'not-found',
      target: id,
      message: `ref ${id} (button "Start free trial") is no longer on the page; the outline above lists what is there now.`,
    });
  });

  it('says hidden when the element (or what holds it) is hidden now', () => {
    const { registry, ref } = setUp('<main><div id="box"><button id="b">Details</button></div><button id="c">Close</button></main>');
    (document.getElementById('box') as HTMLElement).hidden = true;
    (document.getElementById('c') as HTMLElement).setAttribute('aria-hidden', 'true');
    for (const name of ['Details', 'Close']) {
      const result = resolveTarget(ref(name), { registry });
      expect(result).toMatchObject({ ok: false, reason: 'hidden' });
      expect(!result.ok && result.message).toMatch(/is on the page but hidden now; open or scroll to what contains it/);
    }
  });

  it('says hidden when a re-rendered element is found again, but hidden', () => {
    const { registry, ref } = setUp('<main id="m"><button id="x">Export</button></main>');
    const id = ref('Export');
    (document.getElementById('m') as HTMLElement).innerHTML = '<div hidden><button id="x">Export</button></div>';
    expect(resolveTarget(id, { registry })).toMatchObject({ ok: false, reason: 'hidden' });
  });

  it('goes to a visible copy when its element is hidden, as when a framework keeps the old view hidden', () => {
    const { registry, ref } = setUp('<main><div id="old"><button>Checkout</button></div><div id="new"></div></main>');
    const id = ref('Checkout');
    (document.getElementById('old') as HTMLElement).hidden = true;
    (document.getElementById('new') as HTMLElement).innerHTML = '<button>Checkout</button>';
    expect(resolveTarget(id, { registry })).toMatchObject({ ok: true, element: document.querySelector('#new button'), via: 'relocated' });
    // The ref follows the copy from now on.
    expect(resolveTarget(id, { registry })).toMatchObject({ ok: true, element: document.querySelector('#new button'), via: 'ref' });
  });

  it('says ambiguous when a gone element matches several new ones and nothing tells them apart', () => {
    const { registry, ref } = setUp('<main id="m"><button>Delete</button></main>');
    const id = ref('Delete');
    (document.getElementById('m') as HTMLElement).innerHTML = '<ul><li><button>Delete</button></li><li><button>Delete</button></li></ul>';
    const result = resolveTarget(id, { registry });
    expect(result).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(!result.ok && result.message).toBe(
      `ref ${id} (button "Delete") was re-rendered and now matches 2 elements; pick one of their refs from the outline above.`,
    );
  });

  it('says a ref the outline never gave is not one, and never resolves it as a tag name', () => {
    const { registry } = setUp('<main><button>Ok</button></main>');
    expect(resolveTarget('e999', { registry })).toMatchObject({
      ok: false,
      reason: 'not-found',
      message: 'e999 is not a ref the page outline gave; use one of the refs it lists, such as e3.',
    });
  });

  it('only finds elements inside its root', () => {
    const { registry, ref } = setUp('<aside id="guide"><button>Ask</button></aside><main id="site"><button>Buy</button></main>');
    const site = document.getElementById('site') as HTMLElement;
    expect(resolveTarget(ref('Buy'), { registry, root: site })).toMatchObject({ ok: true });
    expect(resolveTarget(ref('Ask'), { registry, root: site })).toMatchObject({ ok: false, reason: 'not-found' });
    expect(resolveTarget('#guide button', { registry, root: site, selectors: true })).toMatchObject({ ok: false, reason: 'not-found' });
  });

  it('resolves refs inside shadow roots', () => {
    document.body.innerHTML = '<plan-card id="card"></plan-card>';
    const shadow = (document.getElementById('card') as HTMLElement).attachShadow({ mode: 'open' });
    shadow.innerHTML = '<button class="buy">Buy Team</button>';
    const registry = createRefRegistry();
    const id = refIn(lineOf(renderOutline(outlinePage({ registry })), 'Buy Team'));
    expect(resolveTarget(id, { registry })).toMatchObject({ ok: true, element: shadow.querySelector('.buy') });
    // A CSS selector finds it too: every open shadow root is searched.
    expect(resolveTarget('.buy', { registry, selectors: true })).toMatchObject({ ok: true, element: shadow.querySelector('.buy'), ref: id, via: 'selector' });
  });
});

describe('resolveTarget with CSS selectors (opt-in: selectors: true)', () => {
  it('resolves the first visible match, and gives its ref when it has one', () => {
    loadDemo().show('commercial');
    const registry = createRefRegistry();
    outlinePage({ registry });
    const team = document.getElementById('tier-team');
    expect(resolveTarget('#tier-team', { registry, selectors: true })).toEqual({
      ok: true,
      element: team,
      ref: expect.stringMatching(/^e\d+$/),
      via: 'selector',
    });
    document.body.insertAdjacentHTML('afterbegin', '<p hidden class="price">hidden</p>');
    expect(resolveTarget('.price', { registry, selectors: true })).toMatchObject({ ok: true, element: document.querySelector('#tier-starter .price') });
  });

  it('says not-found or invalid in words for the model; a match that is hidden is not-found too', () => {
    document.body.innerHTML = '<div hidden><button class="x">X</button></div>';
    const notFound = (selector: string) => ({
      ok: false,
      reason: 'not-found',
      message: `Nothing visible on the page matches "${selector}"; use a ref from the page outline, such as e3.`,
    });
    expect(resolveTarget('#nothing', { selectors: true })).toEqual({ ...notFound('#nothing'), target: '#nothing' });
    expect(resolveTarget('.x', { selectors: true })).toEqual({ ...notFound('.x'), target: '.x' });
    expect(resolveTarget('button[', { selectors: true })).toMatchObject({ ok: false, reason: 'refused' });
    expect(resolveTarget('button >', { selectors: true })).toMatchObject({
      ok: false,
      reason: 'invalid',
      message: '"button >" is neither a ref from the page outline (such as e3) nor a valid CSS selector.',
    });
  });

  it('never throws on what a model sends', () => {
    document.body.innerHTML = '<button>Ok</button>';
    for (const target of ['', '   ', null, undefined, 42, {}, ['e1'], '<script>', ':::', 'e1e1']) {
      const result = resolveTarget(target);
      expect(result.ok, String(target)).toBe(false);
      expect(result.ok ? '' : result.message).toMatch(/e3/);
    }
  });

  it('refuses a root that is not a node, as a host mistake', () => {
    expect(() => resolveTarget('e1', { root: 'main' as never })).toThrow(ValidationError);
  });
});

describe('resolveTarget acts only on what the model was shown (issue 20 item 3)', () => {
  it('takes refs only by default: a CSS selector is refused with a pointer to the refs', () => {
    const { registry } = setUp('<main><button id="go">Go</button><div id="secret-div" onclick="">Never shown</div></main>');
    for (const selector of ['#go', '#secret-div', 'main button']) {
      expect(resolveTarget(selector, { registry })).toEqual({
        ok: false,
        reason: 'invalid',
        target: selector,
        message: `"${selector}" is not a ref from the page outline; use one of the refs it lists, such as e3.`,
      });
    }
  });

  it('refuses selectors that test attribute values, look at siblings or contents, even when opted in', () => {
    document.body.innerHTML =
      '<form><input type="password" value="hunter2" name="pw"><input type="hidden" name="csrf" value="abc123"><button>Go</button></form>';
    for (const selector of [
      'input[type=password][value^="hun"]',
      '[value^=h]',
      'input[name=csrf]',
      '[name|=pw]',
      'form:has(input[value^=a]) button',
      'button:not([disabled])',
      ':is(input) ~ button',
      'input + button',
      'input:placeholder-shown',
      'input:invalid',
      'button:nth-child(2n of [value^=a])',
      'input::before',
      '#a\\31 b',
    ]) {
      const result = resolveTarget(selector, { selectors: true });
      expect(result, selector).toMatchObject({ ok: false, reason: 'refused' });
      expect(!result.ok && result.message, selector).toMatch(/use a ref from the page outline/);
    }
    // The safe subset still works.
    for (const selector of ['form button', 'form > button', 'button:last-child', 'form button:nth-of-type(1)', 'input[name]', 'form, main']) {
      expect(resolveTarget(selector, { selectors: true }).ok, selector).toBe(true);
    }
  });

  it('answers a selector that matches only a hidden element exactly as one that matches nothing (no oracle)', () => {
    document.body.innerHTML = '<main><div hidden><button class="csrf">Secret</button></div><button class="shown" style="opacity:0">Ghost</button></main>';
    const answer = (selector: string) => {
      const result = resolveTarget(selector, { selectors: true });
      return result.ok ? 'ok' : `${result.reason}: ${result.message.replace(selector, 'S')}`;
    };
    expect(answer('.csrf')).toBe(answer('.nothing-at-all'));
    expect(answer('.shown')).toBe(answer('.nothing-at-all'));
  });

  it('refuses a ref to an element a sighted user cannot see now: opacity 0, clipped, transparent ancestors', () => {
    const { registry, ref } = setUp('<main><div id="wrap"><button id="b">Pay now</button></div><button id="c">Close</button></main>');
    (document.getElementById('wrap') as HTMLElement).style.opacity = '0';
    expect(resolveTarget(ref('Pay now'), { registry })).toMatchObject({ ok: false, reason: 'hidden' });
    (document.getElementById('c') as HTMLElement).style.cssText = 'position:absolute;clip-path:inset(50%)';
    expect(resolveTarget(ref('Close'), { registry })).toMatchObject({ ok: false, reason: 'hidden' });
  });

  it('counts a visually hidden checkbox as seen through its visible label', () => {
    const { registry, ref } = setUp('<main><label><input type="checkbox" style="opacity:0"> Remember me</label></main>');
    expect(resolveTarget(ref('Remember me'), { registry })).toMatchObject({ ok: true });
  });

  it("keeps the host's own UI off-limits: [data-planloop-ignore] and exclude, for refs and selectors alike", () => {
    document.body.innerHTML =
      '<aside id="guide"><button class="g">Ask the guide</button></aside><div data-planloop-ignore><button class="p">Panel</button></div><main><button>Buy</button></main>';
    const registry = createRefRegistry();
    // An outline made without exclude gave the guide's button a ref; the tool still refuses it.
    const text = renderOutline(outlinePage({ registry }));
    expect(text).not.toContain('Panel');
    const guideRef = refIn(lineOf(text, 'Ask the guide'));
    expect(resolveTarget(guideRef, { registry, exclude: '#guide' })).toMatchObject({ ok: false, reason: 'not-found' });
    expect(resolveTarget('.g', { registry, exclude: ['#guide'], selectors: true })).toMatchObject({ ok: false, reason: 'not-found' });
    expect(resolveTarget('.p', { registry, selectors: true })).toMatchObject({ ok: false, reason: 'not-found' });
    expect(resolveTarget('main button', { registry, exclude: '#guide', selectors: true })).toMatchObject({ ok: true });
    expect(renderOutline(outlinePage({ registry, exclude: '#guide' }))).not.toContain('Ask the guide');
  });
});
