/**
 * Each error code has one class (issue 33): a host that checks `ValidationError.isInstance(error)`
 * must see every `invalid_input`. The TypeScript compiler reads src/: which codes each error class
 * owns (the code parameter of its constructor; `PlanloopError` owns the codes no subclass takes),
 * then every `new XError(…)` in src (thrown, returned or passed on) and the codes its first
 * argument can hold, and checks that the class owns them.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function program(): ts.Program {
  const configPath = `${root}tsconfig.json`;
  const config = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const files = parsed.fileNames.filter((file) => file.startsWith(`${root}src/`));
  return ts.createProgram(files, { ...parsed.options, noEmit: true });
}

/** The string literals a type can hold (a literal or a union of them), or `null` when it is wider. */
function literals(type: ts.Type): string[] | null {
  const parts = type.isUnion() ? type.types : [type];
  const out: string[] = [];
  for (const part of parts) {
    if (!part.isStringLiteral()) return null;
    out.push(part.value);
  }
  return out;
}

/** Whether `type` is PlanloopError or a class extending it. */
function isPlanloopErrorClass(type: ts.Type, checker: ts.TypeChecker): boolean {
  for (let current: ts.Type | undefined = type; current; current = checker.getBaseTypes(current as ts.InterfaceType)[0]) {
    if (current.getSymbol()?.getName() === 'PlanloopError') return true;
    if (!(current.flags & ts.TypeFlags.Object) || !((current as ts.ObjectType).objectFlags & ts.ObjectFlags.ClassOrInterface)) return false;
  }
  return false;
}

interface Site {
  where: string;
  className: string;
  codes: string[] | null;
}

function survey() {
  const prog = program();
  const checker = prog.getTypeChecker();
  const owners = new Map<string, string[]>(); // class name -> codes its constructor takes
  const sites: Site[] = [];
  let allCodes: string[] = [];
  for (const file of prog.getSourceFiles()) {
    if (!file.fileName.startsWith(`${root}src/`)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isTypeAliasDeclaration(node) && node.name.text === 'PlanloopErrorCode') allCodes = literals(checker.getTypeAtLocation(node)) ?? [];
      if (ts.isClassDeclaration(node) && node.name) {
        const type = checker.getTypeAtLocation(node);
        if (isPlanloopErrorClass(type, checker) && node.name.text !== 'PlanloopError') {
          // The first constructor overload is the current form (the deprecated 0.1 forms follow it).
          const first = node.members.find((member): member is ts.ConstructorDeclaration => ts.isConstructorDeclaration(member));
          const code = first?.parameters[0];
          const codes = code && code.name.getText() === 'code' ? literals(checker.getTypeAtLocation(code)) : null;
          owners.set(node.name.text, codes ?? []);
        }
      }
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression)) {
        const type = checker.getTypeAtLocation(node);
        if (isPlanloopErrorClass(type, checker)) {
          const signature = checker.getResolvedSignature(node);
          const first = signature?.getDeclaration()?.parameters[0];
          const argument = node.arguments?.[0];
          const where = `${file.fileName.slice(root.length)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          // A deprecated 0.1 form (no code parameter) takes its class's one code.
          if (first && ts.isParameter(first) && first.name.getText() === 'code' && argument) {
            sites.push({ where, className: node.expression.text, codes: literals(checker.getTypeAtLocation(argument)) });
          } else {
            sites.push({ where, className: node.expression.text, codes: [] });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  const owned = [...owners.values()].flat();
  owners.set(
    'PlanloopError',
    allCodes.filter((code) => !owned.includes(code)),
  );
  return { owners, sites, allCodes };
}

describe('each error code has one class', () => {
  const { owners, sites, allCodes } = survey();

  it('reads the codes and the classes from src', () => {
    expect(allCodes).toContain('invalid_input');
    expect(owners.get('ValidationError')).toEqual(['invalid_input']);
    expect(owners.get('AbortError')).toEqual(['aborted', 'timeout']);
    expect(sites.length).toBeGreaterThan(100);
  });

  it('no code belongs to two classes', () => {
    const seen = new Map<string, string>();
    const shared: string[] = [];
    for (const [name, codes] of owners) {
      for (const code of codes) {
        if (seen.has(code)) shared.push(`${code}: ${seen.get(code)} and ${name}`);
        seen.set(code, name);
      }
    }
    expect(shared).toEqual([]);
    expect(allCodes.filter((code) => !seen.has(code))).toEqual([]);
  });

  it('every new XError(code, …) in src uses the class that owns the code', () => {
    const wrong = sites.flatMap((site) => {
      if (site.codes === null)
        return site.className === 'PlanloopError' ? [`${site.where}: new PlanloopError with a code that is not one literal (name the code)`] : [];
      const mine = owners.get(site.className) ?? [];
      return site.codes
        .filter((code) => !mine.includes(code))
        .map((code) => {
          const owner = [...owners].find(([, codes]) => codes.includes(code))?.[0];
          return `${site.where}: new ${site.className}('${code}', …) but ${owner} owns '${code}'`;
        });
    });
    expect(wrong).toEqual([]);
  });
});
