/*
 * The one rule for values that look secret, wherever they stand in text bound for a model (page
 * prose, names, link text, field values, live regions, tool results, URLs): card numbers (Luhn),
 * IBANs (their mod-97 checksum), keys with a well-known prefix (`sk-`, `ghp_`, `AKIA`…), JWTs,
 * one-time codes named as such, and long random-looking tokens. A leaf module (it imports
 * nothing): `planloop/dom` and the loop both use it.
 */

/** What stands in a text where a secret was. */
export const SECRET_MARK = '[secret]';

/**
 * The placeholder a model types for a secret it may name but never see, `{{secret:name}}` (the
 * name in group 1): planloop/dom's `fill` puts the host's value in its place, and the loop never
 * compares a value that holds one. Global: use it with `matchAll`, `replace` or `search`, not `test`.
 *
 * @example
 * ```ts
 * Array.from('{{secret:password}}'.matchAll(SECRET_PLACEHOLDER), (m) => m[1]); // ['password']
 * ```
 */
export const SECRET_PLACEHOLDER = /\{\{\s*secret\s*:\s*([\w.-]+)\s*\}\}/g;

/** Spans (start, end) of `text` that look secret, in order, not overlapping. */
function secretSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const add = (start: number, end: number): void => {
    spans.push([start, end]);
  };
  // Card numbers: a run of digit groups whose first groups hold 13 to 19 digits that pass Luhn (an expiry or CVC may follow).
  for (const match of text.matchAll(/\d+(?:[ -]\d+)*/g)) {
    let digits = '';
    for (const group of match[0].matchAll(/\d+/g)) {
      digits += group[0];
      if (digits.length > 19) break;
      if (digits.length >= 13 && luhn(digits)) add(match.index, match.index + group.index + group[0].length);
    }
  }
  // IBANs: two letters, two check digits, then 11 to 30 letters and digits (in groups of four or not); a shorter reading when the longest fails.
  for (const match of text.matchAll(/\b[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)\b/gi)) {
    let candidate = match[0];
    while (candidate.length >= 15) {
      if (ibanValid(candidate)) {
        add(match.index, match.index + candidate.length);
        break;
      }
      const space = candidate.lastIndexOf(' ');
      if (space < 0) break;
      candidate = candidate.slice(0, space);
    }
  }
  for (const pattern of KEY_PATTERNS) for (const match of text.matchAll(pattern)) add(match.index + (match[1]?.length ?? 0), match.index + match[0].length);
  for (const match of text.matchAll(OTP_AFTER_WORDS)) {
    const code = match[2] ?? '';
    const end = match.index + match[0].length;
    if (code.replace(/\D/g, '').length >= 4) add(end - code.length, end);
  }
  for (const match of text.matchAll(OTP_BEFORE_WORDS)) add(match.index, match.index + (match[1]?.length ?? 0));
  for (const match of text.matchAll(/[A-Za-z0-9_\-+/=]{24,}/g)) {
    if (randomLooking(match[0])) add(match.index, match.index + match[0].length);
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

/** Keys and tokens with a well-known shape; group 1, when present, is a lead-in that is kept. */
const KEY_PATTERNS: readonly RegExp[] = [
  /(^|[^A-Za-z0-9])(?:sk|pk|rk)[-_](?:live|test|proj|ant)?[-_]?[A-Za-z0-9_-]{8,}/g,
  /\b(?:ghp|gho|ghs|ghu|github_pat|glpat|xox[abpors]|AKIA|ASIA|AIza)[-_A-Za-z0-9]{10,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?/g,
];
/** A one-time code after the words that name it: "Your verification code is 482 913", "OTP: 123456", "PIN 4821". */
const OTP_AFTER_WORDS =
  /\b(otp|passcode|pin|one[- ]?time (?:pass)?(?:code|password)|(?:verification|security|login|sign[- ]?in|auth(?:entication)?|confirmation|access|2fa|mfa|one[- ]?time|your) code|code is|code:|code was)(?![A-Za-z])[^\d\n]{0,20}?(\d[\d ]{2,8}\d)\b/gi;
/** A one-time code before them: "482913 is your verification code". */
const OTP_BEFORE_WORDS = /\b(\d{4,8})\s+is\s+your\b[^\n]{0,30}?\b(?:code|otp|pin|passcode|password)\b/gi;

/**
 * A run of 24+ key characters that reads as random: a digit and a letter in it, and one stretch
 * between separators (`-`, `_`, `/`, `.`, `+`, `=`) of 16+ characters that mixes them. A slug
 * (`2023-05-01-some-long-title`) or a path is words and numbers apart: not a secret.
 */
function randomLooking(token: string): boolean {
  if (!/\d/.test(token) || !/[A-Za-z]/.test(token)) return false;
  return token.split(/[-_/+=.]/).some((part) => part.length >= 16 && /\d/.test(part) && /[A-Za-z]/.test(part));
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** An IBAN whose check digits are right (ISO 13616: the number mod 97 is 1). */
function ibanValid(text: string): boolean {
  const iban = text.replace(/ /g, '').toUpperCase();
  if (iban.length < 15 || iban.length > 34 || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1;
}

/**
 * Whether `text` holds something that looks like a secret: a card number (13 to 19 digits,
 * spaces or dashes allowed, that pass the Luhn check), an IBAN with valid check digits, a key or
 * token with a well-known prefix (`sk-`, `ghp_`, `xoxb-`, `AKIA`, `AIza`), a JWT, a one-time code
 * named as one ("Your code is 482913"), or a run of 24+ letters and digits that reads as random.
 *
 * @example
 * ```ts
 * looksSecret('4242 4242 4242 4242'); // true
 * looksSecret('IBAN DE89 3704 0044 0532 0130 00'); // true
 * looksSecret('Order 1234'); // false
 * ```
 */
export function looksSecret(text: string): boolean {
  return secretSpans(text).length > 0;
}

/**
 * `text` with every value that looks secret (see {@link looksSecret}) replaced by `[secret]`;
 * the rest unchanged.
 *
 * @example
 * ```ts
 * redactSecrets('Your code is 482913.'); // 'Your code is [secret].'
 * ```
 */
export function redactSecrets(text: string): string {
  const spans = secretSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + SECRET_MARK;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Words in a field's name, id, autocomplete or label that say its value is secret: password,
 * passphrase, PIN, token, API key, one-time code (OTP, TOTP), card number, CVC/CVV/CSC, security
 * code, IBAN, account and routing numbers, SSN, and the same in a few other languages
 * (Passwort, mot de passe, contraseña…). camelCase and `-`/`_` are read as word breaks. `label`:
 * the words are a label's text, where `pan` is not a card number's name.
 *
 * @example
 * ```ts
 * saysSecret('ccNumber'); // true
 * saysSecret('Security code (CVC)'); // true
 * saysSecret('Email'); // false
 * ```
 */
export function saysSecret(words: string, label = false): boolean {
  const text = words
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[-_]/g, ' ');
  return (label ? LABEL_WORDS : NAME_WORDS).test(text);
}

/** The words, as alternatives; `pan` (primary account number) only in names and ids: in a label it is a pan. */
const WORDS = [
  'pass(word|phrase|code)?|passwd|pwd|secret|token|api ?key|otp|totp|one ?time ?(pass ?)?(code|password|pin)|verification code',
  'cvc2?|cvv2?|csc|ssn|pin|iban|card ?(num|number|no|nr)?|cardnum(ber)?|cc ?(num|number|no)|ccn|security ?code',
  'account ?(num|number|no)|routing ?(num|number|no)?|sort ?code',
  'passwort|kennwort|kartennummer|pr[üu]fnummer|mot de passe|num[ée]ro de carte|contrase[ñn]a|senha|n[úu]mero de tarjeta',
].join('|');
const wordPattern = (alternatives: string) => new RegExp(`(^|[^a-z\\u00c0-\\u024f])(${alternatives})([^a-z\\u00c0-\\u024f]|$)`);
const NAME_WORDS = wordPattern(`${WORDS}|pan`);
const LABEL_WORDS = wordPattern(WORDS);

/** Query keys whose value is a credential, whatever it looks like. */
const SECRET_KEYS =
  /^(.*[-_])?(token|access[-_]?token|id[-_]?token|refresh[-_]?token|code|auth|authorization|key|api[-_]?key|secret|password|pass|pwd|session|sid|sig|signature|otp|state|nonce|ticket|jwt|bearer|csrf)$/i;

/**
 * `url` with the values of query and hash parameters that are credentials (keys such as `token`,
 * `code`, `key`, `session`, `sig`, or values that look secret) replaced by `…`, and any other
 * value that looks secret redacted; a relative URL stays relative.
 *
 * @example
 * ```ts
 * redactUrl('/reset?token=8f3k2q&lang=de#access_token=abc'); // '/reset?token=…&lang=de#access_token=…'
 * ```
 */
export function redactUrl(url: string): string {
  const cut = (part: string, lead: string): string =>
    part.replace(new RegExp(`([${lead}&;])([^=&;#]+)=([^&;#]*)`, 'g'), (whole, sep: string, key: string, value: string) => {
      let decoded = value;
      try {
        decoded = decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the value as it is.
      }
      return value !== '' && (SECRET_KEYS.test(key) || looksSecret(decoded)) ? `${sep}${key}=…` : whole;
    });
  const hashAt = url.indexOf('#');
  const main = hashAt < 0 ? url : url.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const queryAt = main.indexOf('?');
  const path = queryAt < 0 ? main : main.slice(0, queryAt);
  const query = queryAt < 0 ? '' : cut(main.slice(queryAt), '?');
  // A hash is often `#access_token=…&state=…` (OAuth's implicit flow), or a route: both read as parameters.
  const fragment = hash ? `#${cut(`&${hash.slice(1)}`, '#').slice(1)}` : '';
  return redactSecrets(path + query + fragment);
}

/** Invisible characters a page may put inside an echoed secret (zero-width, bidi, soft hyphen, joiners). */
const INVISIBLE =
  '[\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0]*';

/**
 * `text` with every occurrence of one of `values` (the host's secrets) replaced by `[secret]`:
 * in any letter case, URL-encoded, or with invisible characters between its letters. Values
 * shorter than 4 characters are not looked for (they would match ordinary words).
 *
 * @example
 * ```ts
 * redactValues('Welcome back, your password is Hunter2-horse', ['hunter2-horse']); // 'Welcome back, your password is [secret]'
 * ```
 */
export function redactValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) {
    if (typeof value !== 'string' || value.trim().length < 4) continue;
    for (const form of new Set([value, encodeURIComponent(value)])) {
      const pattern = [...form].map((char) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(INVISIBLE);
      out = out.replace(new RegExp(pattern, 'giu'), SECRET_MARK);
    }
  }
  return out;
}
