// The fictional Orbitly site: its routes (History API) and the little behaviour its pages have.
// Page content is static markup in index.html's <template>s, one per page and language
// (`page-commercial`, `page-commercial-de`, `page-commercial-ja`); nothing here parses strings as
// HTML. The site speaks the demo's language (demo-words.ts), which follows the tour's.

import type { DemoLanguage } from './demo-words.js';

/** One page of the site, as the guide's sitemap describes it. */
export interface SitePage {
  path: string;
  title: string;
  description: string;
}

/** The site's pages: what the planner sees as the sitemap. */
export const SITE_PAGES: SitePage[] = [
  { path: '/', title: 'Home', description: 'what Orbitly is and its three main features (#features)' },
  {
    path: '/commercial',
    title: 'Pricing',
    description: 'the Starter, Team and Business plans (#tier-starter, #tier-team, #tier-business) and a comparison table (#compare)',
  },
  {
    path: '/try',
    title: 'Try it',
    description: 'the free-trial form (#trial-form): name (#trial-name), email (#trial-email), plan (#trial-plan), submit (#trial-submit)',
  },
  { path: '/docs', title: 'Docs', description: 'a quick start (#docs-quickstart) and the API reference (#docs-api)' },
];

const TEMPLATES: Record<string, string> = { '/': 'page-home', '/commercial': 'page-commercial', '/try': 'page-try', '/docs': 'page-docs' };

/** The site's router. */
export interface SiteRouter {
  /** The current path. */
  readonly path: string;
  /** Goes to `path` (pushState) and renders it; resolves once the page is in the DOM. */
  go(path: string, state?: { plan?: string }): Promise<void>;
}

/** Normalises `/commercial/`, `commercial` and `/commercial?x` to `/commercial`. */
export function normalisePath(path: string): string {
  const bare = String(path).trim().split(/[?#]/)[0] ?? '/';
  const withSlash = bare.startsWith('/') ? bare : `/${bare}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') : '/';
}

/**
 * Starts the router on `view`: renders the current URL in the demo's language, follows
 * `[data-link]` clicks and Back/Forward, and renders the page again when the language changes.
 */
export function startSite(view: HTMLElement, language: DemoLanguage): SiteRouter {
  let current = normalisePath(location.pathname);

  const render = (path: string, state: { plan?: string } | null): void => {
    current = path;
    const id = TEMPLATES[path] ?? 'page-missing';
    const template = (document.getElementById(language.lang === 'en' ? id : `${id}-${language.lang}`) ??
      document.getElementById(id)) as HTMLTemplateElement | null;
    view.replaceChildren(template ? template.content.cloneNode(true) : document.createTextNode(''));
    document.title = `${language.words.pageTitle(path)} · ${language.words.titleEnd}`;
    for (const link of document.querySelectorAll<HTMLAnchorElement>('.site-nav a')) {
      if (normalisePath(link.getAttribute('href') ?? '') === path) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    if (path === '/try') wireTrialForm(view, state?.plan, language);
  };

  const go = async (path: string, state: { plan?: string } = {}): Promise<void> => {
    const next = normalisePath(path);
    // Keep the query (?fast=1 and friends) across the tour's navigation.
    if (next !== current) history.pushState(state, '', next + location.search);
    else history.replaceState(state, '', next + location.search);
    render(next, state);
    window.scrollTo({ top: 0 });
  };

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = (event.target as Element | null)?.closest?.('a[data-link]') as HTMLAnchorElement | null;
    if (!link || link.origin !== location.origin) return;
    event.preventDefault();
    void go(link.pathname, link.dataset.plan ? { plan: link.dataset.plan } : {});
  });
  window.addEventListener('popstate', (event) => render(normalisePath(location.pathname), event.state as { plan?: string } | null));
  render(current, history.state as { plan?: string } | null);
  language.onChange(() => render(current, history.state as { plan?: string } | null));

  return {
    get path() {
      return current;
    },
    go,
  };
}

function wireTrialForm(view: HTMLElement, plan: string | undefined, language: DemoLanguage): void {
  const form = view.querySelector<HTMLFormElement>('#trial-form');
  if (!form) return;
  const select = form.querySelector<HTMLSelectElement>('#trial-plan');
  if (select && plan && Array.from(select.options).some((option) => option.value === plan)) select.value = plan;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    const email = String(data.get('email') ?? '').trim();
    const result = form.querySelector('#trial-result');
    if (!result) return;
    if (!name || !email.includes('@')) {
      result.textContent = language.words.site.trialMissing;
      result.setAttribute('data-state', 'error');
      return;
    }
    const planName = select?.selectedOptions[0]?.textContent ?? 'Team';
    result.textContent = language.words.site.trialReady(name, planName, email);
    result.setAttribute('data-state', 'ok');
  });
}
