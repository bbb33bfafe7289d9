import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Extracts every TSDoc `@example` in src/ and type-checks them all in one TypeScript program. The
 * convention an example follows (README, "Developing"): it is a module a host writes, compiled with
 * `strict` against today's src/. Without an import it may use
 * 1. the exports of its own file,
 * 2. then those of the entry a host imports that file from (`planloop` or a subpath),
 * 3. then those of `planloop`, then those of the other subpaths (in tsconfig.json's `paths` order),
 * 4. then the host values in test/helpers/tsdoc-host.ts (`plan`, `provider`, `signal`, …).
 * A name the example declares or imports itself is its own (`declare const form: HTMLFormElement;`
 * for anything else the host has). It is compiled beside its source file, so an example of an
 * internal module may import a sibling its file imports already (`import type { PlanCore } from
 * './plan-core.js'`; another would add an edge to the import graph test/architecture.test.ts
 * reads, comments included). Top-level `await`
 * works. A name marked `@deprecated` fails (show the name to use now). A private (unexported)
 * function has no `@example`: say it in prose. Only
 * ```ts fences are compiled; another language (```html) is listed as skipped.
 */

/** One `@example` code block of a TSDoc comment in src/. */
export interface TsdocExample {
  /** `src/plan.ts:120`: the file and the line the code block's first line is on. */
  where: string;
  /** Absolute path of the source file. */
  file: string;
  /** 1-based line of the code block's first line in {@link file}. */
  line: number;
  /** The fence's language (`ts`, `html`, …); `''` when the fence names none. */
  lang: string;
  code: string;
}

/** An example that does not compile: where it is and the compiler's errors, each at its source line. */
export interface TsdocFailure {
  where: string;
  /** `src/plan.ts:123: Cannot find name 'planx'. (TS2304)`, one per diagnostic. */
  errors: string[];
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');
const HOST = join(ROOT, 'test/helpers/tsdoc-host.ts');
const CHECKED_LANGS = new Set(['ts', 'typescript']);

/**
 * The public entries a host imports (`planloop`, `planloop/dom`, …) and their source files, read
 * from tsconfig.json's `paths` (the same map the tests and the build use), `planloop` first: the
 * order in which names are looked up after the example's own entry.
 */
export function entries(): Array<readonly [specifier: string, file: string]> {
  const paths = (compilerOptions().paths ?? {}) as Record<string, string[]>;
  return Object.entries(paths)
    .filter(([specifier, [file]]) => (specifier === 'planloop' || specifier.startsWith('planloop/')) && file !== undefined)
    .map(([specifier, [file]]) => [specifier, resolve(ROOT, file!)] as const)
    .sort(([a], [b]) => Number(b === 'planloop') - Number(a === 'planloop'));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
    })
    .sort();
}

const TAG = /^\s*\*\s*@example\b/;
const FENCE = /^\s*\*\s*```\s*(\w*)/;

/**
 * Every `@example` block in src/: the fenced code after the tag, with the comment's `* ` taken off.
 * An `@example` with no fence before the next tag or the comment's end is returned with
 * `lang: 'none'` and no code, so the test can say where it is.
 *
 * @example
 * ```ts
 * const examples = tsdocExamples(); // [{ where: 'src/plan.ts:120', lang: 'ts', code: '…' }, …]
 * ```
 */
export function tsdocExamples(dir = SRC): TsdocExample[] {
  const found: TsdocExample[] = [];
  for (const file of sourceFiles(dir)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!TAG.test(lines[i]!)) continue;
      let j = i + 1;
      while (j < lines.length && !FENCE.test(lines[j]!) && !/^\s*\*\s*@\w+/.test(lines[j]!) && !/\*\//.test(lines[j]!)) j++;
      const fence = j < lines.length ? FENCE.exec(lines[j]!) : null;
      if (!fence) {
        found.push({ where: `${relative(ROOT, file)}:${i + 1}`, file, line: i + 1, lang: 'none', code: '' });
        continue;
      }
      const start = j + 1;
      let end = start;
      while (end < lines.length && !/^\s*\*\s*```/.test(lines[end]!) && !/\*\//.test(lines[end]!)) end++;
      const code = lines
        .slice(start, end)
        .map((line) => line.replace(/^\s*\* ?/, ''))
        .join('\n');
      found.push({ where: `${relative(ROOT, file)}:${start + 1}`, file, line: start + 1, lang: fence[1]!.toLowerCase(), code });
      i = end;
    }
  }
  return found;
}

/** tsconfig.json's options (paths to src/, lib, target), loosened to what a host with `strict` has. */
function compilerOptions(): ts.CompilerOptions {
  const configPath = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configPath);
  return {
    ...parsed.options,
    strict: true,
    noEmit: true,
    // A host's tsconfig need not be as strict as ours; the examples show the API, not our style.
    noUncheckedIndexedAccess: false,
    exactOptionalPropertyTypes: false,
    verbatimModuleSyntax: false,
    isolatedModules: false,
    noUnusedLocals: false,
    noUnusedParameters: false,
  };
}

/** The names a module exports and, for each, the source file it is declared in. */
function exportsOf(checker: ts.TypeChecker, source: ts.SourceFile | undefined): Array<[name: string, declaredIn: string | undefined]> {
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) return [];
  return checker
    .getExportsOfModule(symbol)
    .filter((exported) => exported.getName() !== 'default')
    .map((exported) => {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      return [exported.getName(), target.declarations?.[0]?.getSourceFile().fileName];
    });
}

/** The names an example defines or imports at its top level (they shadow everything in scope). */
function ownNames(code: string): Set<string> {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, false);
  const names = new Set<string>();
  const bind = (name: ts.BindingName): void => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) names.add(element.name.text);
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name &&
      ts.isIdentifier(statement.name)
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/**
 * The names an example uses that are marked `@deprecated` (an old name kept as an alias): an
 * example shows the name to use now. Only the example's own lines count, not the generated imports.
 */
function deprecatedUses(checker: ts.TypeChecker, source: ts.SourceFile, headerLines: number): Array<{ start: number; message: string }> {
  const from = source.getPositionOfLineAndCharacter(headerLines, 0);
  const found: Array<{ start: number; message: string }> = [];
  const visit = (node: ts.Node): void => {
    if (node.end <= from) return;
    if (ts.isIdentifier(node) && node.getStart(source) >= from && !ts.isImportSpecifier(node.parent)) {
      // Along the alias chain (the example's import, an entry's re-export, the declaration): an
      // old name may be a deprecated re-export of the new one. Only planloop's own deprecations.
      let tag: ts.JSDocDeprecatedTag | undefined;
      const seen = new Set<ts.Symbol>();
      for (let symbol = checker.getSymbolAtLocation(node); symbol && !seen.has(symbol) && !tag; ) {
        seen.add(symbol);
        tag = symbol.declarations
          ?.filter((declaration) => declaration.getSourceFile().fileName.startsWith(`${SRC}/`))
          .map((declaration) => ts.getJSDocDeprecatedTag(ts.isExportSpecifier(declaration) ? declaration.parent.parent : declaration))
          .find((deprecated) => deprecated !== undefined);
        symbol = symbol.flags & ts.SymbolFlags.Alias ? checker.getImmediateAliasedSymbol(symbol) : undefined;
      }
      if (tag) {
        const why = ts.getTextOfJSDocComment(tag.comment)?.replace(/\s+/g, ' ').trim();
        found.push({ start: node.getStart(source), message: `'${node.text}' is deprecated${why ? `: ${why}` : ''} (@deprecated)` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The relative module specifiers a piece of code imports: static, `export … from`, `import('…')`. */
function relativeImports(source: ts.SourceFile): Set<string> {
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)
            ? node.argument.literal.text
            : undefined;
    if (specifier?.startsWith('.')) found.add(specifier);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * One compiler host for a base program and a second one built on it: files in `files` are virtual
 * (never written), and what the first program parsed and resolved is not parsed or resolved again.
 * test/readme-code.test.ts compiles the README's blocks with it too.
 *
 * @example
 * ```ts
 * const files = new Map([['/repo/example.ts', 'export const a: number = 1;']]);
 * const program = ts.createProgram([...files.keys()], options, virtualCompilerHost(options, files));
 * ```
 */
export function virtualCompilerHost(options: ts.CompilerOptions, files: ReadonlyMap<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  const parsed = new Map<string, ts.SourceFile>();
  host.fileExists = (path) => files.has(path) || fileExists.call(host, path);
  host.readFile = (path) => files.get(path) ?? readFile.call(host, path);
  host.getSourceFile = (path, language, onError, create) => {
    const content = files.get(path);
    if (content !== undefined) return ts.createSourceFile(path, content, language, true);
    let source = parsed.get(path);
    if (!source) {
      source = getSourceFile.call(host, path, language, onError, create);
      if (source) parsed.set(path, source);
    }
    return source;
  };
  const resolutions = ts.createModuleResolutionCache(ROOT, (name) => name, options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, resolveOptions) =>
    literals.map((literal) => ts.resolveModuleName(literal.text, containingFile, resolveOptions, host, resolutions, redirected));
  return host;
}

/** A path an import can name: absolute, without the `.ts`. */
const moduleOf = (file: string): string => file.replace(/\.ts$/, '');

/** The result of {@link checkExamples}. */
export interface TsdocCheck {
  /** The ```ts examples compiled. */
  checked: number;
  /** Examples in another language (`src/dom/host-ui.ts:14 (html)`), not compiled. */
  skipped: string[];
  failures: TsdocFailure[];
}

/**
 * Type-checks the ```ts examples in one program, each as a module of its own with the names of the
 * convention in scope (see the top of this file). Errors point at the example's line in src/.
 *
 * @example
 * ```ts
 * const { failures } = checkExamples(tsdocExamples());
 * expect(failures).toEqual([]);
 * ```
 */
export function checkExamples(examples: readonly TsdocExample[]): TsdocCheck {
  const options = compilerOptions();
  const checkedExamples = examples.filter((example) => CHECKED_LANGS.has(example.lang));
  const skipped = examples.filter((example) => !CHECKED_LANGS.has(example.lang)).map((example) => `${example.where} (${example.lang})`);
  const entryList = entries();
  const entryFiles = entryList.map(([, file]) => file);
  const files = new Map<string, string>();
  const host = virtualCompilerHost(options, files);
  const base = ts.createProgram([...entryFiles, HOST, ...new Set(checkedExamples.map((example) => example.file))], options, host);
  const checker = base.getTypeChecker();

  // Which entry a host imports each source file's exports from: the first entry that re-exports it.
  const entryOfFile = new Map<string, string>();
  const entryExports = entryList.map(([specifier, file]) => {
    const names = exportsOf(checker, base.getSourceFile(file));
    for (const [, declaredIn] of names) if (declaredIn && !entryOfFile.has(declaredIn)) entryOfFile.set(declaredIn, specifier);
    return [specifier, names.map(([name]) => name)] as const;
  });
  const hostNames = exportsOf(checker, base.getSourceFile(HOST)).map(([name]) => name);

  const virtual = new Map<string, { example: TsdocExample; headerLines: number }>();
  // test/architecture.test.ts reads imports in comments too: an example may import a sibling only
  // when its file already does, or the example would add an edge (or a cycle) to the graph.
  const importErrors = new Map<TsdocExample, string[]>();
  checkedExamples.forEach((example) => {
    const own = relativeImports(base.getSourceFile(example.file)!);
    const extra = [...relativeImports(ts.createSourceFile('example.ts', example.code, ts.ScriptTarget.ES2022, true))].filter(
      (specifier) => !own.has(specifier),
    );
    if (extra.length > 0) {
      importErrors.set(example, [
        `${example.where}: imports ${extra.join(', ')}, which ${relative(ROOT, example.file)} does not import (the architecture test counts imports in comments): declare the value instead`,
      ]);
    }
  });
  checkedExamples.forEach((example, index) => {
    const own = ownNames(example.code);
    const scope = new Map<string, string>(); // name -> module specifier
    const add = (specifier: string, names: readonly string[]): void => {
      for (const name of names) if (!own.has(name) && !scope.has(name)) scope.set(name, specifier);
    };
    add(
      moduleOf(example.file),
      exportsOf(checker, base.getSourceFile(example.file)).map(([name]) => name),
    );
    const home = entryOfFile.get(example.file);
    for (const [specifier, names] of entryExports) if (specifier === home) add(specifier, names);
    for (const [specifier, names] of entryExports) add(specifier, names);
    add(moduleOf(HOST), hostNames);
    const bySpecifier = new Map<string, string[]>();
    for (const [name, specifier] of scope) bySpecifier.set(specifier, [...(bySpecifier.get(specifier) ?? []), name]);
    const header = `${[...bySpecifier].map(([specifier, names]) => `import { ${names.join(', ')} } from '${specifier}';`).join('\n')}\nexport {};\n`;
    // Beside its source file (never written to disk), so `./sibling.js` imports resolve as there.
    const path = join(dirname(example.file), `__tsdoc_example_${index}.ts`);
    files.set(path, `${header + example.code}\n`);
    virtual.set(path, { example, headerLines: header.split('\n').length - 1 });
  });

  const program = ts.createProgram([...files.keys()], options, host, base);

  const failures: TsdocFailure[] = [];
  for (const [path, { example, headerLines }] of virtual) {
    const source = program.getSourceFile(path)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    const at = (start: number | undefined, message: string): string => {
      const line = start === undefined ? -1 : source.getLineAndCharacterOfPosition(start).line - headerLines;
      // A line before the example is the generated header: an implicit import that no longer resolves.
      return line < 0 ? `${example.where} (implicit imports): ${message}` : `${relative(ROOT, example.file)}:${example.line + line}: ${message}`;
    };
    const errors = [
      ...(importErrors.get(example) ?? []),
      ...diagnostics.map((diagnostic) => at(diagnostic.start, `${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')} (TS${diagnostic.code})`)),
      ...deprecatedUses(program.getTypeChecker(), source, headerLines).map(({ start, message }) => at(start, message)),
    ];
    if (errors.length > 0) failures.push({ where: example.where, errors });
  }
  return { checked: checkedExamples.length, skipped, failures };
}
