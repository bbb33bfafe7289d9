// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { isSecretField, outlinePage, renderOutline } from '../../src/dom/index.js';
import { lineOf } from './fixtures.js';

afterEach(() => {
  document.body.replaceChildren();
});

/** Sets each field's value (as a user typing would) and returns the outline's text and nodes. */
function outlineWithValues(html: string, values: Record<string, string>, options: { privateSelector?: string } = {}) {
  document.body.innerHTML = html;
  for (const [id, value] of Object.entries(values)) {
    const field = document.getElementById(id);
    if (field && 'value' in field) (field as HTMLInputElement).value = value;
    else if (field) field.textContent = value;
  }
  const outline = outlinePage(options);
  return { text: renderOutline(outline), json: JSON.stringify(outline.nodes.map(({ element: _element, ...node }) => node)), outline };
}

describe('values that never reach the model', () => {
  it('withholds passwords, card data, one-time codes and fields named like secrets, and says so', () => {
    const { text, json } = outlineWithValues(
      `<form aria-label="Sign in">
        <label for="user">Email</label><input id="user" type="email">
        <label for="pw">Password</label><input id="pw" type="password">
        <label for="card">Card number</label><input id="card" autocomplete="cc-number">
        <label for="exp">Expiry</label><input id="exp" autocomplete="billing cc-exp">
        <label for="otp">Code</label><input id="otp" autocomplete="one-time-code" inputmode="numeric">
        <label for="key">Key</label><input id="key" name="apiKey">
        <label for="np">New</label><input id="np" name="user_new_password" type="text">
        <label for="pin">PIN</label><input id="pin" name="pin">
      </form>`,
      { user: 'ada@example.com', pw: 'hunter2', card: '4111111111111111', exp: '12/29', otp: '123456', key: 'sk-live-abc', np: 'n3wpass', pin: '9876' },
    );
    for (const secret of ['hunter2', '4111111111111111', '12/29', '123456', 'sk-live-abc', 'n3wpass', '9876']) {
      expect(text).not.toContain(secret);
      expect(json).not.toContain(secret);
    }
    expect(lineOf(text, 'Email')).toMatch(/textbox "Email" email value="ada@example.com"$/);
    for (const name of ['Password', 'Card number', 'Expiry', 'Code', 'Key', 'New', 'PIN']) expect(lineOf(text, name), name).toMatch(/ secret$/);
  });

  it('withholds values inside [data-planloop-private] and the host privateSelector, select choices and editable text included', () => {
    const html = `
      <label for="open">Open</label><input id="open">
      <div data-planloop-private>
        <label for="note">Note</label><textarea id="note"></textarea>
        <label for="acct">Account</label><select id="acct"><option>Checking 1234</option><option selected>Savings 9876</option></select>
        <div role="textbox" aria-label="Memo" id="memo" contenteditable="true"></div>
      </div>
      <label for="salary">Salary</label><input id="salary" class="sensitive">`;
    const values = { open: 'visible text', note: 'my diary', memo: 'private memo', salary: '123000' };
    const { text, json } = outlineWithValues(html, values, { privateSelector: '.sensitive' });
    for (const secret of ['my diary', 'Checking 1234', 'Savings 9876', 'private memo', '123000']) {
      expect(text).not.toContain(secret);
      expect(json).not.toContain(secret);
    }
    expect(lineOf(text, 'Open')).toMatch(/value="visible text"$/);
    for (const name of ['Note', 'Account', 'Memo', 'Salary']) expect(lineOf(text, name), name).toMatch(/ private$/);
    // Without the host's selector, the salary is an ordinary field.
    expect(outlineWithValues(html, values).text).toContain('value="123000"');
  });

  it('withholds values in a private container across a shadow boundary, and under a private root', () => {
    document.body.innerHTML = '<div data-planloop-private><card-form id="host"></card-form></div>';
    const shadow = (document.getElementById('host') as HTMLElement).attachShadow({ mode: 'open' });
    shadow.innerHTML = '<label for="f">Name on card</label><input id="f">';
    (shadow.getElementById('f') as HTMLInputElement).value = 'ADA LOVELACE';
    expect(renderOutline(outlinePage())).not.toContain('ADA LOVELACE');
    expect(renderOutline(outlinePage({ root: shadow }))).toMatch(/textbox "Name on card" private$/);
  });

  it('knows secret fields by type, autocomplete and name, and not ordinary ones', () => {
    const field = (html: string) => {
      document.body.innerHTML = html;
      return document.body.firstElementChild as Element;
    };
    expect(isSecretField(field('<input type="password">'))).toBe(true);
    expect(isSecretField(field('<input autocomplete="cc-csc">'))).toBe(true);
    expect(isSecretField(field('<input autocomplete="current-password">'))).toBe(true);
    expect(isSecretField(field('<input id="accessToken">'))).toBe(true);
    expect(isSecretField(field('<input name="cvv">'))).toBe(true);
    for (const plain of [
      '<input name="passenger">',
      '<input name="shipping">',
      '<input id="compass">',
      '<input autocomplete="email">',
      '<input name="topic">',
    ]) {
      expect(isSecretField(field(plain)), plain).toBe(false);
    }
  });
});

describe('element state', () => {
  it('says checked, mixed, pressed, expanded, selected, current, required and disabled', () => {
    document.body.innerHTML = `
      <input type="checkbox" id="a" aria-label="Terms" checked>
      <input type="checkbox" id="b" aria-label="Some">
      <input type="radio" name="r" aria-label="Monthly">
      <div role="switch" aria-checked="true" aria-label="Dark mode" tabindex="0"></div>
      <button aria-pressed="true">Bold</button>
      <button aria-expanded="false">Menu</button>
      <div role="tablist"><button role="tab" aria-selected="true">One</button><button role="tab" aria-selected="false">Two</button></div>
      <a href="/docs" aria-current="page">Docs</a>
      <fieldset disabled><legend>Billing</legend><input aria-label="Street" required></fieldset>
      <button aria-disabled="true">Later</button>`;
    (document.getElementById('b') as HTMLInputElement).indeterminate = true;
    const text = renderOutline(outlinePage());
    expect(lineOf(text, 'Terms')).toMatch(/checkbox "Terms" checked$/);
    expect(lineOf(text, 'Some')).toMatch(/checkbox "Some" mixed$/);
    expect(lineOf(text, 'Monthly')).toMatch(/radio "Monthly" unchecked$/);
    expect(lineOf(text, 'Dark mode')).toMatch(/switch "Dark mode" checked$/);
    expect(lineOf(text, 'Bold')).toMatch(/button "Bold" pressed$/);
    expect(lineOf(text, 'Menu')).toMatch(/button "Menu" collapsed$/);
    expect(lineOf(text, 'One')).toMatch(/tab "One" selected$/);
    expect(lineOf(text, 'Two')).toMatch(/tab "Two"$/);
    expect(lineOf(text, 'Docs')).toMatch(/link "Docs" current=page$/);
    expect(lineOf(text, 'Billing')).toMatch(/group "Billing" disabled$/);
    expect(lineOf(text, 'Street')).toMatch(/textbox "Street" required disabled$/);
    expect(lineOf(text, 'Later')).toMatch(/button "Later" disabled$/);
  });

  it('clips long values and lists a long select by its first choices and a count', () => {
    document.body.innerHTML = `<textarea aria-label="Bio"></textarea><select aria-label="Country">${Array.from({ length: 12 }, (_, i) => `<option>Country ${i}</option>`).join('')}</select>`;
    (document.querySelector('textarea') as HTMLTextAreaElement).value = 'x'.repeat(500);
    const text = renderOutline(outlinePage());
    expect(lineOf(text, 'Bio')).toMatch(/value="x{39}…"$/);
    expect(lineOf(text, 'Country')).toMatch(/value="Country 0" options=Country 0\|.*\|Country 7\|\+4$/);
  });
});
