// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createRefRegistry, fill, looksSecret, outlinePage, renderOutline } from '../../src/dom/index.js';
import { lineOf, refIn } from './fixtures.js';

// Issue 20 item 6: secrets never reach the model, and the model never writes one.

afterEach(() => {
  document.body.replaceChildren();
});

const outline = (options: Parameters<typeof outlinePage>[0] = {}) => renderOutline(outlinePage(options));

describe('secret values are withheld from the outline', () => {
  it('keeps a password secret after a "show password" button turns it into type=text', () => {
    document.body.innerHTML = '<main><label>Sign-in key <input id="k" type="password"></label></main>';
    const field = document.getElementById('k') as HTMLInputElement;
    expect(outline()).toMatch(/textbox "Sign-in key" secret$/m);
    field.value = 'hunter2-correct-horse';
    field.type = 'text';
    const text = outline();
    expect(text).not.toContain('hunter2');
    expect(lineOf(text, 'Sign-in key')).toMatch(/secret$/);
  });

  it('withholds payment fields by name, and card numbers and API keys in any field or contenteditable', () => {
    document.body.innerHTML = `<main>
      <input aria-label="Number" name="cardnum" value="4000 0566 5566 5556">
      <input aria-label="Card" id="ccNumber" value="4000056655665556">
      <input aria-label="Notes" value="my card 4242-4242-4242-4242 thanks">
      <input aria-label="Code" autocomplete="one-time-code" value="123456">
      <div contenteditable="true" aria-label="Scratch">key: sk-live-9f8Ahd7s6D5f4g3h2j1k</div>
      <div contenteditable="true" aria-label="Token pad">AbCdEf0123456789GhIjKl0123</div>
      <input aria-label="Order" value="Order 1234 5678">
      <input aria-label="Slug" value="a-very-long-hyphenated-article-slug-here"></main>`;
    const text = outline();
    for (const secret of ['4000', '4242', '123456', 'sk-live', 'AbCdEf']) expect(text).not.toContain(secret);
    for (const name of ['Number', 'Card', 'Notes', 'Code', 'Scratch', 'Token pad']) expect(lineOf(text, name), name).toMatch(/ secret$/);
    expect(lineOf(text, 'Order')).toContain('value="Order 1234 5678"');
    expect(lineOf(text, 'Slug')).toContain('value="a-very-long');
  });

  it('lets the host opt one field in, never a password field', () => {
    document.body.innerHTML =
      '<main><input aria-label="Promo" id="promo" name="token" value="SPRING24"><input aria-label="Pw" id="pw" type="password" value="x"></main>';
    const text = outline({ revealValues: '#promo, #pw' });
    expect(lineOf(text, 'Promo')).toContain('value="SPRING24"');
    expect(lineOf(text, 'Pw')).toMatch(/secret$/);
  });

  it('shows no token that a link carries in its query', () => {
    document.body.innerHTML = '<main><a href="/logout?_token=Zx81kQ0aP2mB7cD4eF6gH8iJ">Log out</a><a href="/search?q=shoes">Shoes</a></main>';
    document.body.innerHTML += '<a href="https://shop.example/cart?session=Zx81kQ0aP2mB7cD4eF6gH8iJ">Cart</a>';
    const text = outline();
    expect(text).not.toContain('Zx81');
    // Same-site targets are not listed at all; another site's is, without its token.
    expect(lineOf(text, 'Log out')).not.toContain('->');
    expect(lineOf(text, 'Cart')).not.toContain('Zx81');
  });

  it('knows what looks like a secret', () => {
    for (const secret of ['4111 1111 1111 1111', 'ghp_abcdefghijklmnop1234', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.x', 'AKIAABCDEFGHIJKLMNOP'])
      expect(looksSecret(secret), secret).toBe(true);
    for (const plain of ['4111 1111 1111 1112', 'Call 555 0100 today', 'Hello world', '2026-11-26']) expect(looksSecret(plain), plain).toBe(false);
  });
});

describe('fill', () => {
  function form(): { registry: ReturnType<typeof createRefRegistry>; ref: (name: string) => string } {
    document.body.innerHTML = `<main><form>
      <label>Email <input id="email" type="email"></label>
      <label>Password <input id="pw" type="password"></label>
      <label>Plan <select id="plan"><option value="s">Starter</option><option value="t">Team</option></select></label>
      <div id="note" contenteditable="true" aria-label="Note"></div></form></main>`;
    const registry = createRefRegistry();
    const text = outline({ registry });
    return { registry, ref: (name) => refIn(lineOf(text, name)) };
  }

  it('types into fields, chooses options, and fires input and change', async () => {
    const { registry, ref } = form();
    const events: string[] = [];
    document.addEventListener('input', (e) => events.push(`input:${(e.target as Element).id}`));
    document.addEventListener('change', (e) => events.push(`change:${(e.target as Element).id}`));
    expect(await fill(ref('Email'), 'ada@example.com', { registry })).toMatchObject({ ok: true, value: 'ada@example.com' });
    expect((document.getElementById('email') as HTMLInputElement).value).toBe('ada@example.com');
    expect(await fill(ref('Plan'), 'Team', { registry })).toMatchObject({ ok: true });
    expect((document.getElementById('plan') as HTMLSelectElement).value).toBe('t');
    expect(await fill(ref('Plan'), 'Gold', { registry })).toMatchObject({ ok: false, reason: 'no-such-option' });
    expect(await fill(ref('Note'), 'hello', { registry })).toMatchObject({ ok: true });
    expect(document.getElementById('note')?.textContent).toBe('hello');
    expect(events).toEqual(['input:email', 'change:email', 'input:plan', 'change:plan', 'input:note', 'change:note']);
  });

  it('fills a secret field only from a placeholder the host resolves, and never says the value', async () => {
    const { registry, ref } = form();
    const pw = document.getElementById('pw') as HTMLInputElement;
    const literal = await fill(ref('Password'), 'guess123', { registry, secrets: { password: 's3cret!' } });
    expect(literal).toMatchObject({ ok: false, reason: 'secret-literal' });
    expect(!literal.ok && literal.message).toContain('{{secret:password}}');
    expect(pw.value).toBe('');
    expect(await fill(ref('Password'), '{{secret:bank}}', { registry, secrets: { password: 's3cret!' } })).toMatchObject({
      ok: false,
      reason: 'unknown-secret',
    });
    const done = await fill(ref('Password'), '{{secret:password}}', { registry, secrets: (name) => (name === 'password' ? 's3cret!' : undefined) });
    expect(done).toMatchObject({ ok: true, value: 'withheld', detail: expect.stringContaining('secret "password"') });
    expect(JSON.stringify(done)).not.toContain('s3cret');
    expect(pw.value).toBe('s3cret!');
    expect(outline({ registry })).not.toContain('s3cret');
  });

  it('refuses a placeholder into an ordinary field, where the page could show it back', async () => {
    const { registry, ref } = form();
    expect(await fill(ref('Email'), '{{secret:password}}', { registry, secrets: { password: 's3cret!' } })).toMatchObject({
      ok: false,
      reason: 'secret-elsewhere',
    });
    expect((document.getElementById('email') as HTMLInputElement).value).toBe('');
  });
});

// Issue 31: secret fields known only by their label, split card numbers, a password revealed before any outline, private names.
describe('the secret rule, by label and by group', () => {
  it('withholds CVC, IBAN and one-time-code fields known only by their label, a card number split over four fields, and a password shown as text before the first outline', () => {
    document.body.innerHTML = `<main>
      <label for="a">Security code (CVC)</label><input id="a" value="737">
      <label for="b">IBAN</label><input id="b" value="GB82 WEST 1234 5698 7654 32">
      <label for="c">One-time code</label><input id="c" value="493817">
      <fieldset><legend>Card</legend><input maxlength="4" value="4242" aria-label="1"><input maxlength="4" value="4242" aria-label="2"><input maxlength="4" value="4242" aria-label="3"><input maxlength="4" value="4242" aria-label="4"></fieldset>
      <label for="d">Password</label><input id="d" type="text" autocomplete="current-password" value="hunter2-horse">
      <label for="e">Town</label><input id="e" value="Leeds"></main>`;
    const text = outline({ revealValues: '#d' });
    for (const secret of ['737', 'GB82', '493817', '4242', 'hunter2']) expect(text).not.toContain(secret);
    expect(lineOf(text, 'Town')).toContain('value="Leeds"');
  });

  it('withholds the names of headings, buttons and links under data-planloop-private; a field keeps its label', () => {
    document.body.innerHTML =
      '<main><section data-planloop-private><h2>Wire to Mallory</h2><button>Approve transfer</button><a href="/s">Statement</a><label>Amount <input value="900"></label></section></main>';
    const text = outline();
    for (const name of ['Mallory', 'Approve', 'Statement', '900']) expect(text).not.toContain(name);
    expect(text).toMatch(/button private$/m);
    expect(lineOf(text, 'Amount')).toMatch(/private$/);
  });
});
