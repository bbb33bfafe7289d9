// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { outlinePage, renderOutline } from '../../src/dom/index.js';
import { lineOf } from './fixtures.js';

afterEach(() => document.body.replaceChildren());

describe('field help and live regions in the outline', () => {
  it('shows a field’s description, a hint right after it, and the error of an invalid field', () => {
    document.body.innerHTML = `
      <form aria-label="Sign up">
        <label for="email">Email</label><input id="email" type="email" aria-invalid="true" aria-errormessage="email-error" aria-describedby="email-help">
        <p id="email-help">We never share it</p><p id="email-error">Enter a valid email address</p>
        <label for="pw">Password</label><input id="pw" type="password"><small>At least 8 characters</small>
        <label>Name <input name="name"></label><span>As on your card</span>
        <label for="ghost">Ghost</label><input id="ghost" aria-describedby="gone"><p id="gone" hidden>Hidden help</p>
      </form>`;
    const text = renderOutline(outlinePage());
    expect(lineOf(text, 'Email')).toMatch(/textbox "Email" email invalid error="Enter a valid email address" hint="We never share it"$/);
    expect(lineOf(text, 'Password')).toMatch(/textbox "Password" secret hint="At least 8 characters"$/);
    expect(lineOf(text, 'Name')).toMatch(/hint="As on your card"$/);
    expect(text).not.toContain('Hidden help');
  });

  it('lists alerts and status messages with their text, marks a changed one new, and leaves empty ones out', () => {
    document.body.innerHTML = '<main><div role="alert" id="a"></div><div aria-live="polite" id="s">Saved</div><button>Pay</button></main>';
    const first = renderOutline(outlinePage());
    expect(first).not.toContain('alert');
    expect(lineOf(first, 'Saved')).toMatch(/status "Saved" new$/);
    (document.getElementById('a') as HTMLElement).textContent = 'Card declined';
    const second = renderOutline(outlinePage());
    expect(lineOf(second, 'Card declined')).toMatch(/alert "Card declined" new$/);
    expect(lineOf(second, 'Saved')).toMatch(/status "Saved"$/);
  });
});
