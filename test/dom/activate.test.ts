// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { activate, checkNavigation, createRefRegistry, outlinePage, renderOutline, type ActivateStep } from '../../src/dom/index.js';
import { lineOf, refIn } from './fixtures.js';

afterEach(() => {
  document.body.replaceChildren();
});

/** The page, outlined; `ref(name)` is what the model was shown for that name. */
function page(html: string): { registry: ReturnType<typeof createRefRegistry>; ref: (name: string) => string; clicks: string[] } {
  document.body.innerHTML = html;
  const clicks: string[] = [];
  document.addEventListener('click', (event) => {
    const target = event.target as Element;
    clicks.push(target.id || target.localName);
    // Never let happy-dom navigate: the test looks at what activate decided.
    if (target.closest('a')) event.preventDefault();
  });
  document.addEventListener('submit', (event) => {
    clicks.push(`submit:${(event.target as HTMLFormElement).id}`);
    event.preventDefault();
  });
  const registry = createRefRegistry();
  const text = renderOutline(outlinePage({ registry }));
  return { registry, ref: (name) => refIn(lineOf(text, name)), clicks };
}

describe('activate', () => {
  it('clicks a plain button and says so', async () => {
    const { registry, ref, clicks } = page('<main><button id="more">Show more</button></main>');
    const result = await activate(ref('Show more'), { registry });
    expect(result).toEqual({
      ok: true,
      target: ref('Show more'),
      ref: ref('Show more'),
      did: 'clicked',
      detail: `Clicked ${ref('Show more')} (button "Show more")`,
    });
    expect(clicks).toEqual(['more']);
  });

  it('never follows javascript:, data:, file: or blob: links', async () => {
    const { registry, ref, clicks } = page(`<main>
      <a id="js" href="javascript:alert(1)">Claim prize</a>
      <a id="data" href="data:text/html,<script>alert(1)</script>">Open data</a>
      <a id="file" href="file:///etc/passwd">Open file</a>
      <a id="blob" href="blob:http://localhost/1234">Open blob</a>
      <a id="tab" href=" java&#9;script:alert(1)">Tabbed</a></main>`);
    for (const name of ['Claim prize', 'Open data', 'Open file', 'Open blob', 'Tabbed']) {
      const result = await activate(ref(name), { registry, confirm: () => ({ approved: true }) });
      expect(result, name).toMatchObject({ ok: false, reason: 'blocked-url' });
      expect(!result.ok && result.message, name).toMatch(/URLs are never opened/);
    }
    expect(clicks).toEqual([]);
  });

  it('refuses links to other origins unless allowed, and then asks', async () => {
    const { registry, ref, clicks } = page(
      '<main><a id="off" href="https://evil.example/steal">Verify account</a><a id="docs" href="https://docs.example.com/start">Docs</a></main>',
    );
    expect(await activate(ref('Verify account'), { registry, confirm: () => ({ approved: true }) })).toMatchObject({ ok: false, reason: 'other-origin' });
    const asked: ActivateStep[] = [];
    const result = await activate(ref('Docs'), {
      registry,
      allowedOrigins: ['https://docs.example.com'],
      confirm: (step) => (asked.push(step), { approved: true }),
    });
    expect(result).toMatchObject({ ok: true, did: 'followed-link', url: 'https://docs.example.com/start' });
    expect(asked).toEqual([
      {
        risk: 'irreversible',
        detail: 'Click the link "Docs". It leaves the site for docs.example.com/start.',
        effect: 'It leaves the site for docs.example.com/start',
        consequence: 'leave',
        url: 'https://docs.example.com/start',
      },
    ]);
    expect(clicks).toEqual(['docs']);
  });

  it('refuses downloads unless allowed', async () => {
    const { registry, ref, clicks } = page('<main><a id="d1" href="/report.csv" download>Get report</a><a id="d2" href="/setup.exe">Install helper</a></main>');
    for (const name of ['Get report', 'Install helper'])
      expect(await activate(ref(name), { registry, confirm: () => ({ approved: true }) }), name).toMatchObject({ ok: false, reason: 'download' });
    expect(await activate(ref('Get report'), { registry, allowDownloads: true, confirm: () => ({ approved: true }) })).toMatchObject({
      ok: true,
      did: 'downloaded',
    });
    expect(clicks).toEqual(['d1']);
  });

  it('treats a form submission and a new tab as irreversible: refused without confirm, asked with it', async () => {
    const { registry, ref, clicks } = page(`<main><form id="f" aria-label="Delete account" action="/account/delete" method="post">
      <button id="implicit">Delete</button><input id="image" type="image" alt="Confirm deletion"></form>
      <a id="blank" href="/terms" target="_blank">Terms</a><button id="plain" type="button">Toggle</button></main>`);
    for (const name of ['Delete', 'Confirm deletion', 'Terms']) {
      const result = await activate(ref(name), { registry });
      expect(result, name).toMatchObject({ ok: false, reason: 'needs-approval' });
      expect(!result.ok && result.message, name).toMatch(/cannot be undone, and nobody here can approve it/);
    }
    expect(clicks).toEqual([]);
    const asked: ActivateStep[] = [];
    const denied = await activate(ref('Delete'), { registry, confirm: (step) => (asked.push(step), { approved: false, reason: 'not today' }) });
    expect(denied).toMatchObject({ ok: false, reason: 'denied', message: expect.stringContaining('not today') });
    // The form's aria-label is no name a person sees: it is named by its button, and by where it really goes.
    expect(asked[0]).toMatchObject({
      risk: 'irreversible',
      detail: 'Click the button "Delete". It sends the form "Delete" to /account/delete.',
      consequence: 'send',
    });
    expect(await activate(ref('Delete'), { registry, confirm: () => Promise.reject(new Error('boom')) })).toMatchObject({ ok: false, reason: 'denied' });
    expect(await activate(ref('Delete'), { registry, confirm: () => ({ approved: 'yes' }) as never })).toMatchObject({ ok: false, reason: 'denied' });
    expect(clicks).toEqual([]);
    expect(await activate(ref('Delete'), { registry, confirm: async () => ({ approved: true }) })).toMatchObject({ ok: true, did: 'submitted' });
    expect(clicks[0]).toBe('implicit');
    expect(await activate(ref('Toggle'), { registry })).toMatchObject({ ok: true, did: 'clicked' });
  });

  it('refuses a form whose action leaves the site or runs script', async () => {
    const { registry, ref } = page(
      '<main><form action="https://evil.example/collect"><button>Send</button></form><form action="javascript:void 0"><button>Run</button></form></main>',
    );
    expect(await activate(ref('Send'), { registry, confirm: () => ({ approved: true }) })).toMatchObject({ ok: false, reason: 'other-origin' });
    expect(await activate(ref('Run'), { registry, confirm: () => ({ approved: true }) })).toMatchObject({ ok: false, reason: 'blocked-url' });
  });

  it('refuses disabled controls, CSS selectors by default, and never throws on what the model sends', async () => {
    const { registry, ref } = page('<main><button disabled>Pay</button><button id="x">Ok</button></main>');
    expect(await activate(ref('Pay'), { registry })).toMatchObject({ ok: false, reason: 'disabled' });
    expect(await activate('#x', { registry })).toMatchObject({ ok: false, reason: 'invalid' });
    for (const target of [undefined, null, 42, {}, '']) expect((await activate(target, { registry })).ok).toBe(false);
  });
});

describe('checkNavigation', () => {
  it('allows the page origin, allowed origins as irreversible, and nothing else', () => {
    const base = 'https://shop.example/cart';
    expect(checkNavigation('/pricing?x=1', { base })).toEqual({
      ok: true,
      url: 'https://shop.example/pricing?x=1',
      sameOrigin: true,
      risk: 'write',
      detail: 'Open /pricing?x=1',
    });
    expect(checkNavigation('https://pay.example/checkout', { base, allowedOrigins: ['https://pay.example'] })).toMatchObject({
      ok: true,
      risk: 'irreversible',
    });
    expect(checkNavigation('//evil.example/', { base })).toMatchObject({ ok: false, reason: 'other-origin' });
    for (const url of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,x',
      'file:///etc',
      'blob:https://shop.example/1',
      'mailto:a@b.c',
      'vbscript:x',
    ]) {
      expect(checkNavigation(url, { base }), url).toMatchObject({ ok: false, reason: 'blocked-scheme' });
    }
    expect(checkNavigation('', { base })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(() => checkNavigation('/x', { base, allowedOrigins: ['not an origin'] })).toThrow(ValidationError);
  });
});
