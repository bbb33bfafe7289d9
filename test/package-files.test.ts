import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// What the published package holds (`npm pack --dry-run`, scripts off: the file list does not need
// a build), against what the README links to: a README read from the package (node_modules, a
// package CDN's file view) has every link it shows. dist/ is left out of the comparison: whether
// it is built does not change what the README links to.

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { license: string; files: string[] };

function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path);
}

/** The relative links and images of a markdown text, outside code (`[text](target)`, `![alt](target)`, `src="…"`, `href="…"`). */
function relativeLinks(markdown: string): Array<{ line: number; target: string }> {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  const found: Array<{ line: number; target: string }> = [];
  lines.forEach((raw, index) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(raw);
    if (open) {
      if (fence === undefined) fence = open[1];
      else if (raw.trim() === fence) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const text = raw.replace(/(`+)[^`]*?\1/g, (code) => (/^`+$/.test(code) ? code : '``'));
    for (const match of text.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)|(?:src|href)="([^"]+)"/g)) {
      const target = match[1] ?? match[2] ?? match[3];
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('//')) continue;
      found.push({ line: index + 1, target: decodeURI(target.split('#')[0]!) });
    }
  });
  return found;
}

describe('the published package', () => {
  const files = packedFiles();

  it('ships the license package.json names, and the changelog the README points to', () => {
    expect(pkg.license).toBe('MIT');
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json']));
    const license = readFileSync('LICENSE', 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} planloop contributors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('holds every file a relative README link points to', () => {
    const links = relativeLinks(readFileSync('README.md', 'utf8'));
    expect(links.length).toBeGreaterThan(3);
    const missing = links.filter(({ target }) => {
      const path = posix.normalize(target).replace(/^\.\//, '');
      return path.startsWith('..') || !files.some((file) => file === path || file.startsWith(path.endsWith('/') ? path : `${path}/`));
    });
    // Ship the file (package.json "files") or link it absolutely; what it costs shows in `npm pack --dry-run`.
    expect(missing.map(({ line, target }) => `README.md:${line}: ${target} is not in the package`)).toEqual([]);
  });

  it('finds links in markdown and HTML, never in code', () => {
    const text = [
      '[a](docs/a.png) ![b](<docs/b c.png> "title")',
      '`[x](not/a/link)`',
      '```ts',
      'const y = [z](w);',
      '```',
      '<img src="docs/d.png"> [e](https://example.com) [f](#top)',
    ].join('\n');
    expect(relativeLinks(text)).toEqual([
      { line: 1, target: 'docs/a.png' },
      { line: 1, target: 'docs/b c.png' },
      { line: 6, target: 'docs/d.png' },
    ]);
  });
});
