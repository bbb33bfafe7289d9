import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

/** `entry` (TypeScript, resolved from `resolveDir`) bundled into one minified ES module for a page's script tag. */
export async function bundleForPage(entry: string, resolveDir: string): Promise<string> {
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir, loader: 'ts' },
    bundle: true,
    format: 'esm',
    write: false,
    minify: true,
    target: 'es2022',
  });
  return result.outputFiles[0]?.text ?? '';
}

/**
 * `planloop/dom` as it was at git `ref`, bundled for a page: its `src/` taken with `git archive`
 * into a temporary folder (this checkout's node_modules linked in), setting `globalThis[name]` to
 * the module. Throws when the ref is unknown or its code does not build.
 *
 * @example
 * ```ts
 * const code = await bundleDomAt(root, 'd10dc08', 'baselineDom');
 * await page.addScriptTag({ content: code, type: 'module' });
 * ```
 */
export async function bundleDomAt(root: string, ref: string, name: string): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), 'planloop-dom-at-'));
  try {
    const archive = join(work, 'src.tar');
    execFileSync('git', ['-C', root, 'archive', '--format=tar', '-o', archive, ref, 'src']);
    execFileSync('tar', ['-xf', archive, '-C', work]);
    execFileSync('ln', ['-s', join(root, 'node_modules'), join(work, 'node_modules')]);
    return await bundleForPage(`import * as dom from './src/dom/index.ts';\nglobalThis.${name} = dom;`, work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
