// Builds e2e/corpus/*.html from saved real pages (see e2e/corpus/README.md for sources and licences):
// strips what would run or fetch (scripts, iframes, stylesheets links, image sources, event
// handler code is kept as attribute presence only) so a page loads offline and stays small.
// Usage: node scripts/build-corpus.mjs <readability checkout> <name>...
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [repo, ...names] = process.argv.slice(2);
for (const name of names) {
  let html = execFileSync('git', ['-C', repo, 'show', `HEAD:test/test-pages/${name}/source.html`], { encoding: 'utf8', maxBuffer: 1 << 26 });
  html = html
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<iframe\b[\s\S]*?<\/iframe\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<link\b[^>]*>/gi, '')
    .replace(/<(base|meta)\b[^>]*>/gi, (tag) => (/charset/i.test(tag) ? tag : ''))
    .replace(/\s(src|srcset|data-src|data-srcset|data-[a-z-]*src[a-z-]*|poster|background)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
    .replace(/\s(on[a-z]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, ' $1=""')
    .replace(/url\((?!["']?data:)[^)]*\)/gi, 'none')
    .replace(/\n\s*\n+/g, '\n');
  writeFileSync(new URL(`../e2e/corpus/${name}.html`, import.meta.url), html);
  console.log(name, html.length);
}
