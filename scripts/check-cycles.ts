// Fails when the TypeScript sources import each other in a cycle (type-only imports included: a
// cycle of types still ties two modules' jobs together). Run by `npm run lint`.
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
if (configPath === undefined) throw new Error('no tsconfig.json');
const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
const host = ts.createCompilerHost(parsed.options);

const ownFile = (file: string) =>
  !file.includes(`${path.sep}node_modules${path.sep}`) && file.startsWith(root);

function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, ts.sys.readFile(file) ?? '', ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers
    .map((s) => ts.resolveModuleName(s, file, parsed.options, host).resolvedModule?.resolvedFileName)
    .filter((f): f is string => f !== undefined && ownFile(f) && !f.endsWith('.d.ts'));
}

const files = parsed.fileNames.filter((f) => ownFile(f) && !f.endsWith('.d.ts')).map((f) => path.resolve(f));
const graph = new Map(files.map((f) => [f, importsOf(f)]));

// Tarjan's strongly connected components: every component of more than one module is a cycle.
let index = 0;
const indexOf = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
const cycles: string[][] = [];
function connect(v: string) {
  indexOf.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!indexOf.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v)!, low.get(w)!));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
  }
  if (low.get(v) === indexOf.get(v)) {
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(path.relative(root, w));
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
  }
}
for (const f of files) if (!indexOf.has(f)) connect(f);

if (cycles.length > 0) {
  for (const c of cycles) console.error(`import cycle: ${c.join(' <-> ')}`);
  process.exit(1);
}
console.log(`no import cycle among ${files.length} modules`);
