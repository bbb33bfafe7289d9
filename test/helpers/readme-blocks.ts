import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { virtualCompilerHost } from './tsdoc-examples.js';

/**
 * The README's code blocks, compiled as a new user compiles them: each ```ts / ```typescript /
 * ```tsx block is a module of its own, type-checked with `strict` (the options of a fresh Vite app)
 * against the BUILT package's declarations (what `npm run build` writes to dist/types, with
 * `stripInternal`), `planloop` and its subpaths resolving through package.json's "exports". The
 * convention (README, "Developing"):
 * - a block imports every name it uses from planloop and other packages;
 * - a block that shows a fragment says so in an HTML comment on the line before its fence, naming
 *   what it assumes: `<!-- assumes: plan, task, reply: { tool_calls?: unknown[] } -->`. A bare name
 *   comes from test/helpers/readme-host.ts (the values many blocks share: `plan`, `task`, …, each
 *   with a real type); `name: Type` is declared for that block alone (`declare const name: Type;`,
 *   the type written in TypeScript, `import('ai').ModelMessage[]` for another package's);
 * - anything else it uses it imports or defines; other fences (```text, ```json, ```sh) are not compiled.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const README = join(ROOT, 'README.md');
const HOST = join(ROOT, 'test/helpers/readme-host.ts');
/** Declarations of packages a block imports that are not installed (`@mlc-ai/web-llm`). */
const MODULES = join(ROOT, 'test/helpers/readme-modules.d.ts');
const CACHE = join(ROOT, 'node_modules/.cache/planloop-readme-types');
const COMPILED = new Set(['ts', 'typescript', 'tsx']);
const ASSUMES = /^<!--\s*assumes:\s*(.*?)\s*-->$/;

/** One fenced code block of the README. */
export interface ReadmeBlock {
  /** 1-based line of the block's first code line. */
  line: number;
  /** The fence's language, lower-cased (`ts`, `sh`, …; `''` when it names none). */
  lang: string;
  code: string;
  /** What its `<!-- assumes: … -->` comment lists: `plan`, or `reply: { text: string }` (empty without one). */
  assumes: string[];
}

/**
 * Every fenced block of a markdown text, with the names its `<!-- assumes: … -->` comment lists.
 *
 * @example
 * ```ts
 * readmeBlocks(); // [{ line: 12, lang: 'sh', code: 'npm install …', assumes: [] }, …]
 * ```
 */
export function readmeBlocks(text = readFileSync(README, 'utf8')): ReadmeBlock[] {
  const lines = text.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end]!.startsWith(`${indent}${fence}`) && lines[end]!.trim() === fence)) end++;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const comment = before >= 0 ? ASSUMES.exec(lines[before]!.trim()) : null;
    blocks.push({
      line: i + 2,
      lang: lang!.toLowerCase(),
      code: lines
        .slice(i + 1, end)
        .map((line) => line.slice(indent!.length))
        .join('\n'),
      assumes: comment ? splitTopLevel(comment[1]!) : [],
    });
    i = end;
  }
  return blocks;
}

/** `a, b: Record<string, number>` → `['a', 'b: Record<string, number>']`: commas inside brackets stay. */
function splitTopLevel(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if ('<([{'.includes(char)) depth++;
    else if ('>)]}'.includes(char) && !(char === '>' && current.endsWith('='))) depth--;
    if (char === ',' && depth === 0) {
      items.push(current.trim());
      current = '';
    } else current += char;
  }
  items.push(current.trim());
  return items.filter(Boolean);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

/**
 * The package's declarations as `npm run build` writes them (tsconfig.build.json: declarations only,
 * `stripInternal`), built into node_modules/.cache once per version of src/ and the configs (about
 * 13 s of CPU; later runs reuse it), and the `paths` that map `planloop…` to them as package.json's
 * "exports" does.
 *
 * @example
 * ```ts
 * const { dir, paths } = builtTypes(); // paths: { planloop: ['…/types/index.d.ts'], 'planloop/dom': […], … }
 * ```
 */
export function builtTypes(): { dir: string; paths: Record<string, string[]> } {
  const hash = createHash('sha256').update(ts.version);
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json', ...sourceFiles(join(ROOT, 'src')).map((file) => relative(ROOT, file))]) {
    hash.update(`\0${file}\0`).update(readFileSync(join(ROOT, file)));
  }
  const dir = join(CACHE, hash.digest('hex').slice(0, 16));
  if (!existsSync(join(dir, 'index.d.ts'))) buildTypes(dir);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { types?: string }> };
  const paths: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    const types = typeof target === 'object' ? target.types : undefined;
    if (!types) continue;
    if (!types.startsWith('./dist/types/')) throw new Error(`package.json exports["${key}"].types is ${types}, outside dist/types/`);
    paths[`planloop${key.slice(1)}`] = [join(dir, types.slice('./dist/types/'.length))];
  }
  return { dir, paths };
}

function buildTypes(dir: string): void {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
      },
    },
  );
  if (!config) throw new Error('tsconfig.build.json cannot be read');
  // Built beside the final folder and renamed into place: a run that stops halfway leaves no half-built types.
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  const program = ts.createProgram(config.fileNames, { ...config.options, declarationDir: building, noEmit: false });
  const { diagnostics } = program.emit(undefined, undefined, undefined, true);
  if (diagnostics.length > 0) {
    throw new Error(
      `building the declarations failed:\n${ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' })}`,
    );
  }
  mkdirSync(dirname(dir), { recursive: true });
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another process built the same version first
  }
  // Versions of src/ older than a day are left from earlier work: remove them.
  for (const entry of readdirSync(CACHE)) {
    const path = join(CACHE, entry);
    if (path !== dir && Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
  }
}

/** The options of a fresh Vite app's tsconfig (strict, bundler resolution, type-only imports marked), in a browser. */
function hostOptions(paths: Record<string, string[]>): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    jsx: ts.JsxEmit.ReactJSX,
    strict: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    baseUrl: ROOT,
    paths,
  };
}

/** The result of {@link checkReadmeBlocks}. */
export interface ReadmeCheck {
  /** The blocks compiled (```ts, ```typescript, ```tsx). */
  checked: number;
  /** `README.md:52: Cannot find name 'plan'. (TS2304)`: one line per problem, at the block's line. */
  errors: string[];
}

/**
 * Type-checks every ```ts / ```typescript / ```tsx block of the README against the built
 * declarations, in one program; each error names the README line and the compiler's message.
 *
 * @example
 * ```ts
 * const { errors } = checkReadmeBlocks(readmeBlocks());
 * expect(errors).toEqual([]);
 * ```
 */
export function checkReadmeBlocks(blocks: readonly ReadmeBlock[]): ReadmeCheck {
  const options = hostOptions(builtTypes().paths);
  const files = new Map<string, string>();
  const host = virtualCompilerHost(options, files);
  const hostSource = ts.createSourceFile(HOST, readFileSync(HOST, 'utf8'), ts.ScriptTarget.ES2022);
  const hostNames = new Set(
    hostSource.statements.flatMap((statement) =>
      ts.isVariableStatement(statement) ? statement.declarationList.declarations.map((declaration) => declaration.name.getText(hostSource)) : [],
    ),
  );
  const checked = blocks.filter((block) => COMPILED.has(block.lang));
  const errors: string[] = [];
  const virtual = new Map<string, { block: ReadmeBlock; headerLines: number }>();
  checked.forEach((block) => {
    const shared: string[] = [];
    const declared: string[] = [];
    for (const item of block.assumes) {
      const typed = /^([\w$]+)\s*:\s*([\s\S]+)$/.exec(item);
      const name = typed ? typed[1]! : item;
      if (typed) declared.push(`declare const ${name}: ${typed[2]};`);
      else if (!/^[\w$]+$/.test(name)) errors.push(`README.md:${block.line - 1}: "${item}" in the assumes comment is neither a name nor \`name: Type\``);
      else if (!hostNames.has(name))
        errors.push(
          `README.md:${block.line - 1}: the block assumes ${name}, which test/helpers/readme-host.ts does not declare (declare it there, or give its type: \`${name}: Type\`)`,
        );
      else shared.push(name);
      if (!new RegExp(`(^|[^\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(block.code))
        errors.push(`README.md:${block.line - 1}: the block assumes ${name} but does not use it`);
    }
    const header = [shared.length > 0 ? `import { ${shared.join(', ')} } from './test/helpers/readme-host.js';` : '', ...declared, 'export {};', ''].join('\n');
    const path = join(ROOT, `__readme_block_${block.line}.${block.lang === 'tsx' ? 'tsx' : 'ts'}`);
    files.set(path, `${header + block.code}\n`);
    virtual.set(path, { block, headerLines: header.split('\n').length - 1 });
  });
  const program = ts.createProgram([MODULES, ...files.keys()], options, host);
  for (const [path, { block, headerLines }] of virtual) {
    const source = program.getSourceFile(path)!;
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line - headerLines;
      // A line above the block is the header made from its assumes comment (the line before the fence).
      const where = line < 0 ? `README.md:${block.line - 1} (the assumes comment)` : `README.md:${block.line + line}`;
      errors.push(`${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')} (TS${diagnostic.code})`);
    }
  }
  return { checked: checked.length, errors };
}
