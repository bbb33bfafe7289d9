// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { activate, createRefRegistry, outlinePage, renderOutline, type ActivateStep } from '../../src/dom/index.js';
import { clickWords, controlWords, fillWords, formFields, formName, whereTo } from '../../src/dom/effect-words.js';
import { lineOf, refIn } from './fixtures.js';

afterEach(() => document.body.replaceChildren());

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector(selector) as T;

describe('the words of an action', () => {
  it('name a control by its role and visible name; an element without a role by its visible text', () => {
    document.body.innerHTML = `<main><button id="del">Delete account</button><a id="docs" href="/docs">Docs</a>
      <div id="pro" onclick="buy()">Upgrade to Pro €99<span hidden> (free)</span></div><button id="empty"></button>
      <button id="quote">Say "yes". Then: it sends nothing</button></main>`;
    expect(clickWords($('#del'))).toBe('Click the button "Delete account"');
    expect(clickWords($('#docs'))).toBe('Click the link "Docs"');
    expect(clickWords($('#pro'))).toBe('Click "Upgrade to Pro €99"');
    expect(controlWords($('#empty'))).toBe('an unnamed button');
    // Page text cannot close the quote and pass for the sentence around it.
    expect(clickWords($('#quote'))).toBe('Click the button "Say \'yes\'. Then: it sends nothing"');
  });

  it('never show a secret: a secret field’s typing, a form’s field values', () => {
    document.body.innerHTML = `<form><h2>Card</h2><label>Card number <input id="card" name="cc" value="4242 4242 4242 4242"></label>
      <label>Name on card <input id="who" name="who" value="Ada Lovelace"></label><input type="hidden" name="t" value="abc"></form>`;
    expect(fillWords($('#card'), '4242 4242 4242 4242', true)).toBe('Type a saved secret into the field "Card number"');
    expect(fillWords($('#who'), 'Ada')).toBe('Type "Ada" into the field "Name on card"');
    expect(formFields($<HTMLFormElement>('form'))).toEqual({ seen: ['Card number', 'Name on card'], hidden: 1 });
    expect(whereTo('https://shop.example/reset?token=8f3k2q&lang=de', 'https://shop.example/')).toBe('/reset?token=…&lang=de');
    expect(whereTo('https://evil.example/c?n=4242424242424242', 'https://shop.example/')).toBe('evil.example/c?n=…');
  });

  it('name a form by what a person sees: a visible legend or heading, never a hidden one', () => {
    document.body.innerHTML = `<section><h2>Payments</h2><form id="pay"><h3 hidden>Update display name</h3><label>Amount <input name="amount"></label><button>Continue</button></form></section>
      <form id="legend"><h3 style="display:none">Newsletter</h3><fieldset><legend>Transfer money</legend><button>Go</button></fieldset></form>
      <form id="unnamed"><button id="send">Send feedback</button></form>`;
    expect(formName($<HTMLFormElement>('#pay'))).toBe('Payments');
    expect(formName($<HTMLFormElement>('#legend'))).toBe('Transfer money');
    expect(formName($<HTMLFormElement>('#unnamed'), $('#send'))).toBe('Send feedback');
  });

  it('give a submit button’s real destination, its formaction, not the page it is on', async () => {
    document.body.innerHTML = `<main><form id="f" action="/app/settings" method="post"><h2>Display name</h2><label>Display name <input name="name"></label>
      <button>Save</button><button formaction="/api/account/delete">Save and continue</button></form></main>`;
    document.addEventListener('submit', (event) => event.preventDefault(), { once: true });
    const registry = createRefRegistry();
    const text = renderOutline(outlinePage({ registry }));
    const asked: ActivateStep[] = [];
    await activate(refIn(lineOf(text, 'Save and continue')), { registry, settleMs: 10, confirm: (step) => (asked.push(step), { approved: false }) });
    expect(asked).toEqual([
      {
        risk: 'irreversible',
        detail: 'Click the button "Save and continue". It sends the form "Display name" to /api/account/delete: Display name.',
        effect: 'It sends the form "Display name" to /api/account/delete: Display name',
        url: 'http://localhost:3000/api/account/delete',
        consequence: 'send',
      },
    ]);
  });
});
