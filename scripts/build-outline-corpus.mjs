// Builds the saved pages of e2e/outline-corpus/ (see its README for sources and licences) from a
// checkout of AdminLTE (https://github.com/ColorlibHQ/AdminLTE, MIT): each page's HTML as its
// repository has it, made inert (scripts, iframes, external links and image sources removed) with
// the CSS rules that apply to it inlined: a rule is kept when one of its selectors, without its
// states (:hover, :focus…) and pseudo-elements, matches an element of the page in Chromium (the whole
// stylesheet would be 340 KB per page). Icon fonts are left out (their glyphs are private-use
// characters), as on a page whose icon font did not load.
// Usage: node scripts/build-outline-corpus.mjs <AdminLTE git dir> (needs Chromium: CHROMIUM_PATH or /usr/bin/chromium)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import postcss from 'postcss';

const repo = process.argv[2];
if (!repo) throw new Error('Usage: node scripts/build-outline-corpus.mjs <AdminLTE git dir>');
const show = (ref, path) =>
  path.startsWith('file:')
    ? readFileSync(new URL(`../${path.slice(5)}`, import.meta.url), 'utf8')
    : execFileSync('git', ['--git-dir', repo.endsWith('.git') || repo.endsWith('/repo') ? repo : `${repo}/.git`, 'show', `${ref}:${path}`], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });

/** name, git ref, page, stylesheets (paths in the same ref), and a change to the page's state (a tab clicked). */
const PAGES = [
  ['adminlte-register', 'v4.0.2', 'dist/examples/register.html', ['dist/css/adminlte.min.css']],
  ['adminlte-wizard', 'v4.0.2', 'dist/forms/wizard.html', ['dist/css/adminlte.min.css']],
  ['adminlte-settings', 'v4.0.2', 'dist/pages/settings.html', ['dist/css/adminlte.min.css']],
  ['adminlte3-register', 'v3.2.0', 'pages/examples/register.html', ['plugins/icheck-bootstrap/icheck-bootstrap.min.css', 'dist/css/adminlte.min.css']],
  [
    'adminlte3-profile-settings',
    'v3.2.0',
    'pages/examples/profile.html',
    ['dist/css/adminlte.min.css'],
    // The Settings tab selected, as after a click on it (its script is gone).
    (html) =>
      html
        .replace('class="nav-link active" href="#activity"', 'class="nav-link" href="#activity"')
        .replace('class="nav-link" href="#settings"', 'class="nav-link active" href="#settings"')
        .replace('class="active tab-pane" id="activity"', 'class="tab-pane" id="activity"')
        .replace('class="tab-pane" id="settings"', 'class="active tab-pane" id="settings"'),
  ],
  // Bootstrap's checkout example (MIT), in its Bootstrap 5.3 markup (e2e/outline-corpus/source/), with the Bootstrap 5.3 that AdminLTE 4 compiles in.
  ['bootstrap-checkout', 'v4.0.2', 'file:e2e/outline-corpus/source/bootstrap-checkout.html', ['dist/css/adminlte.min.css']],
];

function inert(html) {
  return html
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<iframe\b[\s\S]*?<\/iframe\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<link\b[^>]*>/gi, '')
    .replace(/<(base|meta)\b[^>]*>/gi, (tag) => (/charset/i.test(tag) ? tag : ''))
    .replace(/\s(src|srcset|data-src|poster|background)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
    .replace(/\s(on[a-z]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, ' $1=""')
    .replace(/\n\s*\n+/g, '\n');
}

/** A selector with the states and pseudo-elements a page at rest does not show taken off, to test against its elements. */
const atRest = (selector) =>
  selector.replace(
    /::?(hover|focus|focus-visible|focus-within|active|visited|before|after|placeholder|marker|selection|-webkit-[a-z-]+|-moz-[a-z-]+|-ms-[a-z-]+)(\([^)]*\))?/g,
    '',
  ) || '*';

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const [name, ref, path, sheets, change] of PAGES) {
    let html = inert(show(ref, path));
    if (change) html = change(html);
    const roots = sheets.map((sheet) => postcss.parse(show(ref, sheet).replace(/url\((?!["']?data:)[^)]*\)/gi, 'none')));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.route('**/*', (route) =>
      route.request().url() === 'http://corpus.test/page.html' ? route.fulfill({ contentType: 'text/html', body: html }) : route.abort(),
    );
    await page.goto('http://corpus.test/page.html');
    // Rules whose selectors match no element of the page are dropped (with fonts and emptied at-rules); the rest keep their order and @media blocks.
    const selectors = [];
    for (const root of roots) root.walkRules((rule) => selectors.push(...rule.selectors.map(atRest)));
    const matched = await page.evaluate(
      (list) =>
        list.map((selector) => {
          try {
            return document.querySelector(selector) !== null;
          } catch {
            return false;
          }
        }),
      selectors,
    );
    await page.close();
    let at = 0;
    for (const root of roots) {
      root.walkAtRules('font-face', (rule) => rule.remove());
      root.walkRules((rule) => {
        const keep = rule.selectors.filter(() => matched[at++]);
        if (rule.parent?.type === 'atrule' && /keyframes/.test(rule.parent.name)) return;
        if (keep.length === 0) rule.remove();
        else rule.selectors = keep;
      });
      root.walkAtRules((rule) => {
        if (rule.nodes && rule.nodes.length === 0) rule.remove();
      });
    }
    const used = roots.map((root) => root.toString()).join('\n');
    html = html.replace(/<\/head>/i, `<style>\n${used}\n</style>\n</head>`);
    writeFileSync(new URL(`../e2e/outline-corpus/${name}.html`, import.meta.url), html);
    console.log(name, html.length);
  }
} finally {
  await browser.close();
}
