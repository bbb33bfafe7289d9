import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
let runs = 0;

/**
 * The first fenced code block of `lang` after the README heading `heading` (the whole line, e.g.
 * `### In a Vercel AI SDK tool loop`): the text a reader copies.
 */
export function readmeBlock(heading: string, lang = 'ts'): string {
  const text = readFileSync(README, 'utf8');
  const at = text.split('\n').findIndex((line) => line.trim() === heading);
  if (at < 0) throw new Error(`README.md has no heading "${heading}"`);
  const after = text
    .split('\n')
    .slice(at + 1)
    .join('\n');
  const code = after.match(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``))?.[1];
  if (code === undefined) throw new Error(`README.md has no \`\`\`${lang} block after "${heading}"`);
  return code;
}

/**
 * Runs a README code block as written, as a module next to this one: `scope` supplies the names
 * the README leaves to the reader (`plan`, `model`, …), `planloop` imports resolve to `src/` (the
 * vitest aliases), `edit` may change the code first, and the module exports `exports` for the
 * test to read.
 */
export async function runReadmeBlock<T extends Record<string, unknown>>(
  heading: string,
  options: { scope: Record<string, unknown>; exports: readonly (keyof T & string)[]; edit?: (code: string) => string },
): Promise<T> {
  runs += 1;
  // One file per run and process: test files run in parallel workers.
  const module = fileURLToPath(new URL(`./readme-block-${process.pid}-${runs}.tmp.ts`, import.meta.url));
  const code = (options.edit ?? ((text) => text))(readmeBlock(heading));
  const names = Object.keys(options.scope);
  (globalThis as { __readmeScope?: Record<string, unknown> }).__readmeScope = options.scope;
  const prelude = names.length > 0 ? `const { ${names.join(', ')} } = (globalThis as any).__readmeScope;\n` : '';
  writeFileSync(module, `${prelude}${code}\nexport { ${options.exports.join(', ')} };\n`);
  try {
    return (await import(/* @vite-ignore */ module)) as T;
  } finally {
    rmSync(module, { force: true });
  }
}
