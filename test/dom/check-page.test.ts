// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { checkPage } from '../../src/dom/index.js';

afterEach(() => {
  document.body.replaceChildren();
});

describe('checkPage', () => {
  it('url: the address given, by path, query and hash where the check has them', () => {
    expect(checkPage({ kind: 'url', pattern: '/pricing' }, { url: '/pricing?ref=nav' })).toEqual({ ok: true });
    expect(checkPage({ kind: 'url', pattern: '/pricing' }, { url: '/docs' })).toEqual({ ok: false, missing: 'the page is not at /pricing' });
  });

  it('visible: an element a person can see, by role and a name that contains the words', () => {
    document.body.innerHTML = '<main><div role="status">Your trial has started</div><button hidden>Buy now</button><h2>Plans</h2></main>';
    expect(checkPage({ kind: 'visible', role: 'status', name: 'trial has STARTED' })).toEqual({ ok: true });
    expect(checkPage({ kind: 'visible', name: 'Plans' })).toEqual({ ok: true });
    expect(checkPage({ kind: 'visible', role: 'button', name: 'Plans' })).toMatchObject({ ok: false });
    // Whole words: "started" is not in "restarted", "Saved" not in "Unsaved".
    document.body.insertAdjacentHTML('beforeend', '<p>Unsaved changes. The job restarted.</p>');
    expect(checkPage({ kind: 'visible', name: 'Saved' })).toMatchObject({ ok: false });
    expect(checkPage({ kind: 'visible', name: 'job restarted' })).toEqual({ ok: true });
    // Hidden is not shown: a hidden button proves nothing.
    expect(checkPage({ kind: 'visible', role: 'button', name: 'Buy now' })).toEqual({ ok: false, missing: 'no button "Buy now" is visible' });
  });

  it("the host's own UI is no evidence", () => {
    document.body.innerHTML = '<div id="guide"><div role="status">Saved</div></div><div data-planloop-ignore><h2>Saved</h2></div>';
    expect(checkPage({ kind: 'visible', name: 'Saved' }, { exclude: '#guide' })).toMatchObject({ ok: false });
  });

  it('field: filled, or holding a value (a select by its option text, a box by on/off)', () => {
    document.body.innerHTML = `<form>
      <label>Email <input name="email" value="ada@example.com"></label>
      <label>Name <input name="name"></label>
      <label>Plan <select name="plan"><option value="">Pick</option><option value="team" selected>Team</option></select></label>
      <label><input type="checkbox" name="terms" checked> I agree</label>
    </form>`;
    expect(checkPage({ kind: 'field', field: 'Email' })).toEqual({ ok: true });
    expect(checkPage({ kind: 'field', field: 'email', value: 'ADA@example.com' })).toEqual({ ok: true });
    expect(checkPage({ kind: 'field', field: 'Name' })).toEqual({ ok: false, missing: 'field "Name" is empty' });
    expect(checkPage({ kind: 'field', field: 'Plan', value: 'Team' })).toEqual({ ok: true });
    expect(checkPage({ kind: 'field', field: 'I agree', value: 'on' })).toEqual({ ok: true });
    expect(checkPage({ kind: 'field', field: 'Phone' })).toEqual({ ok: false, missing: 'no field "Phone" can be seen on the page' });
  });

  it('never compares a secret: a password or private field is only checked as filled', () => {
    document.body.innerHTML =
      '<label>Password <input type="password" value="hunter2"></label><div data-planloop-private><label>Note <input value="x"></label></div>';
    expect(checkPage({ kind: 'field', field: 'Password' })).toEqual({ ok: true });
    expect(checkPage({ kind: 'field', field: 'Password', value: 'hunter2' })).toEqual({
      ok: false,
      missing: 'field "Password" is secret: only whether it is filled can be checked',
    });
    expect(checkPage({ kind: 'field', field: 'Note', value: 'x' })).toMatchObject({ ok: false });
    // A value that looks secret is not compared on any field (a key pasted into a plain text box).
    document.body.innerHTML = '<label>Token <input value="sk-live-0123456789abcdefghijklmnop"></label>';
    expect(checkPage({ kind: 'field', field: 'Token', value: 'sk-live-0123456789abcdefghijklmnop' })).toMatchObject({ ok: false });
  });

  it('run facts are not facts of the page', () => {
    expect(checkPage({ kind: 'narrated' })).toEqual({ ok: false, missing: 'nothing was said for it (not a fact of the page)' });
  });
});
