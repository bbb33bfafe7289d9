import { describe, expect, it } from 'vitest';
import { looksSecret, redactSecrets, redactUrl, redactValues, saysSecret } from '../src/secret-text.js';

// Issue 31 part 2: the one rule for values that look secret, wherever they stand.

describe('redactSecrets', () => {
  it('redacts card numbers (Luhn, also beside other digit groups), IBANs (checksum), keys, JWTs and one-time codes named as such', () => {
    expect(redactSecrets('Card 4242 4242 4242 4242 12/26 123')).toBe('Card [secret] 12/26 123');
    expect(redactSecrets('IBAN DE89 3704 0044 0532 0130 00 is the account')).toBe('IBAN [secret] is the account');
    expect(redactSecrets('iban: GB82WEST12345698765432.')).toBe('iban: [secret].');
    expect(redactSecrets('my key: sk-live-4eC39HqLyjWDarjtT1zdp7dc ok')).toBe('my key: [secret] ok');
    expect(redactSecrets('token ghp_abcdefghijklmnop1234')).toBe('token [secret]');
    expect(redactSecrets('jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig')).toBe('jwt [secret]');
    expect(redactSecrets('Your verification code is 482 913.')).toBe('Your verification code is [secret].');
    expect(redactSecrets('OTP: 123456')).toBe('OTP: [secret]');
    expect(redactSecrets('482913 is your code')).toBe('[secret] is your code');
    expect(redactSecrets('AbCdEf0123456789GhIjKl0123')).toBe('[secret]');
  });

  it('leaves ordinary text alone: a wrong checksum, phone numbers, dates, zip and error codes, slugs', () => {
    for (const plain of [
      '4111 1111 1111 1112',
      'DE89 3704 0044 0532 0130 07',
      'Call 555 0100 today',
      '2026-11-26',
      'ZIP code 94103',
      'Error code 4040',
      '/articles/2023-05-01-some-long-title-here',
      'Order 1234 5678',
    ]) {
      expect(redactSecrets(plain), plain).toBe(plain);
      expect(looksSecret(plain), plain).toBe(false);
    }
  });
});

describe('redactUrl and redactValues', () => {
  it("redacts credentials in a URL's query and hash, keeps the rest", () => {
    expect(redactUrl('/reset?token=8f3k2q&lang=de#access_token=abc&x=1')).toBe('/reset?token=…&lang=de#access_token=…&x=1');
    expect(redactUrl('/p?q=shoes&page=2#section-2')).toBe('/p?q=shoes&page=2#section-2');
    expect(redactUrl('/pay?card=4242424242424242')).toBe('/pay?card=…');
  });

  it("redacts the host's values in any case, URL-encoded, with invisible characters between letters", () => {
    expect(redactValues('hi Hunter2 Horse, hun\u200bter2 horse, hunter2%20horse', ['hunter2 horse'])).toBe('hi [secret], [secret], [secret]');
    expect(redactValues('a b c', ['a'])).toBe('a b c');
  });
});

describe('saysSecret', () => {
  it('knows secret words in names and labels, in a few languages, and not ordinary ones', () => {
    for (const words of ['ccNumber', 'user_pin', 'api-key', 'cvv2']) expect(saysSecret(words), words).toBe(true);
    for (const label of ['Security code (CVC)', 'One-time code', 'IBAN', 'Passwort', 'Mot de passe', 'Card number'])
      expect(saysSecret(label, true), label).toBe(true);
    for (const label of ['Email', 'Frying pan', 'Postcode', 'Your name']) expect(saysSecret(label, true), label).toBe(false);
    expect(saysSecret('cc')).toBe(false);
  });
});
