import { ValidationError } from '../errors.js';

/*
 * Where a tool may take the user's tab. Same origin is fine; another origin only when the host
 * lists it (and then it is 'irreversible': the user leaves the site the agent works on);
 * `javascript:`, `data:`, `file:`, `blob:` and every other non-web scheme are never followed.
 */

/** Options of {@link checkNavigation} (and of `activate`'s link and form checks). */
export interface NavigationCheckOptions {
  /**
   * Origins besides the page's own that may be opened, e.g. `['https://docs.example.com']`.
   * Going there is `'irreversible'` (asks the user through `confirm`). Default: none.
   */
  allowedOrigins?: readonly string[] | undefined;
  /** The page the URL is relative to and whose origin is "this site". Default: `document.baseURI` when called. */
  base?: string | URL | undefined;
}

/** Whether a URL may be opened, and how risky it is. */
export type NavigationCheck =
  | {
      ok: true;
      /** The absolute URL. */
      url: string;
      /** On the page's own origin. */
      sameOrigin: boolean;
      /** `'write'` on the same origin, `'irreversible'` to an allowed other origin. */
      risk: 'write' | 'irreversible';
      /** In words, for the user and the model: 'Open /pricing', 'Leave the site for docs.example.com'. */
      detail: string;
    }
  | {
      ok: false;
      /** `blocked-scheme`: javascript:, data:, file:, blob:, mailto:…; `other-origin`: not allowed; `invalid`: not a URL. */
      reason: 'blocked-scheme' | 'other-origin' | 'invalid';
      /** For the model: what was refused and what it may do instead. */
      message: string;
      url: string;
    };

/**
 * Checks a URL a tool is about to open: the page's own origin is allowed (`risk: 'write'`),
 * another origin only when `allowedOrigins` lists it (`risk: 'irreversible'`: ask the user), and
 * only `http:` and `https:` URLs are followed: `javascript:`, `data:`, `file:`, `blob:`, `mailto:`
 * and the rest never are. A refusal's `message` is written for the model.
 * Defaults: no other origins, `base` = `document.baseURI`.
 *
 * @example
 * ```ts
 * import { checkNavigation } from 'planloop/dom';
 *
 * const tools: Record<string, LoopTool> = {
 *   navigate: {
 *     risk: 'write',
 *     description: 'open a page of this site {path}',
 *     run: ({ path }) => {
 *       const check = checkNavigation(String(path)); // same origin only
 *       if (!check.ok) throw new Error(check.message); // the model reads why
 *       history.pushState(null, '', check.url);
 *       return { url: location.pathname };
 *     },
 *   },
 * };
 * checkNavigation('javascript:alert(1)'); // { ok: false, reason: 'blocked-scheme', … }
 * ```
 */
export function checkNavigation(url: unknown, options: NavigationCheckOptions = {}): NavigationCheck {
  const base = String(options.base ?? (globalThis as { document?: Document }).document?.baseURI ?? '');
  const raw = typeof url === 'string' ? url.trim() : url instanceof URL ? url.href : '';
  let parsed: URL;
  let here: URL;
  try {
    here = new URL(base);
  } catch {
    throw new ValidationError('invalid_input', 'checkNavigation: there is no page to resolve against; pass options.base (the current URL).', {
      issues: [{ path: 'base', message: 'must be an absolute URL' }],
    });
  }
  const allowed = allowedOriginsOf(options.allowedOrigins);
  try {
    // Browsers drop tabs and line breaks from URLs ("java\tscript:" is javascript:): so does URL.
    parsed = new URL(raw, here);
  } catch {
    return { ok: false, reason: 'invalid', url: raw, message: `"${clip(raw)}" is not a URL or a path; give a path on this site, such as /pricing.` };
  }
  if (!raw) return { ok: false, reason: 'invalid', url: raw, message: 'The URL is empty; give a path on this site, such as /pricing.' };
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      ok: false,
      reason: 'blocked-scheme',
      url: raw,
      message: `${parsed.protocol} URLs are never opened (only web pages of this site are); "${clip(raw)}" was not followed.`,
    };
  }
  if (parsed.origin === here.origin) {
    return { ok: true, url: parsed.href, sameOrigin: true, risk: 'write', detail: `Open ${parsed.pathname}${parsed.search}` };
  }
  if (allowed.has(parsed.origin)) {
    return {
      ok: true,
      url: parsed.href,
      sameOrigin: false,
      risk: 'irreversible',
      detail: `Leave the site for ${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`,
    };
  }
  return {
    ok: false,
    reason: 'other-origin',
    url: parsed.href,
    message: `${parsed.host} is another site, and this host opens only its own pages; ${parsed.href.length > 80 ? 'that link' : parsed.href} was not followed.`,
  };
}

/** The origins of `allowedOrigins`, checked (a host mistake throws). */
function allowedOriginsOf(list: readonly string[] | undefined): Set<string> {
  const origins = new Set<string>();
  for (const entry of list ?? []) {
    let origin = '';
    try {
      origin = new URL(entry).origin;
    } catch {
      // handled below
    }
    if (!origin || origin === 'null') {
      throw new ValidationError('invalid_input', `allowedOrigins: "${String(entry)}" is not an origin such as https://docs.example.com.`, {
        issues: [{ path: 'allowedOrigins', message: 'must list http(s) origins' }],
      });
    }
    origins.add(origin);
  }
  return origins;
}

function clip(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
