import ts from 'typescript';
import type { EntryPoint } from './entry-points.ts';

// An entry point's public surface as text: every name it exports, sorted, each with the declaration
// it names as the emitted .d.ts states it (comments dropped: the report is about the surface, not its
// prose). A change of a signature, a member, a type's shape or the set of names is a diff of this text.

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** The statement to print for a declaration: a variable's whole `declare const` line, else the node itself. */
function printable(declaration: ts.Declaration): ts.Node {
  if (
    ts.isVariableDeclaration(declaration) &&
    ts.isVariableDeclarationList(declaration.parent) &&
    ts.isVariableStatement(declaration.parent.parent)
  )
    return declaration.parent.parent;
  return declaration;
}

/** One exported name: a header naming what it is when the name differs from the declaration's, then the declaration. */
function describeExport(name: string, symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declarations = target.declarations ?? [];
  if (declarations.length === 0) return `// ${name}: (no declaration)`;
  const texts = declarations.map((declaration) =>
    printer.printNode(ts.EmitHint.Unspecified, printable(declaration), declaration.getSourceFile()).trim(),
  );
  const renamed = target.name !== name && target.name !== 'default' ? `// ${name} (declared as ${target.name})\n` : '';
  return `${renamed}${[...new Set(texts)].join('\n')}`;
}

/**
 * Declarations of this package that exported ones refer to but the entry point does not export (an
 * options type, a result's shape): part of the surface all the same, so they are in the report too,
 * as API Extractor lists "forgotten exports". Followed through each other, to the end.
 */
function referencedUnexported(
  exportedTargets: ReadonlySet<ts.Symbol>,
  packageDir: string,
  checker: ts.TypeChecker,
): ts.Symbol[] {
  const found = new Set<ts.Symbol>();
  const queue = [...exportedTargets];
  const visit = (node: ts.Node): void => {
    if (
      ts.isIdentifier(node) &&
      (ts.isTypeReferenceNode(node.parent) ||
        ts.isExpressionWithTypeArguments(node.parent) ||
        ts.isTypeQueryNode(node.parent) ||
        ts.isQualifiedName(node.parent))
    ) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const declaration = symbol?.declarations?.[0];
      if (
        symbol !== undefined &&
        declaration !== undefined &&
        !exportedTargets.has(symbol) &&
        !found.has(symbol) &&
        declaration.getSourceFile().fileName.startsWith(packageDir) &&
        !ts.isTypeParameterDeclaration(declaration)
      ) {
        found.add(symbol);
        queue.push(symbol);
      }
    }
    ts.forEachChild(node, visit);
  };
  while (queue.length > 0) for (const declaration of queue.shift()!.declarations ?? []) visit(declaration);
  return [...found];
}

/** The report of one entry point, or why it cannot be made (its declarations are missing: build first). */
export function apiReport(entry: EntryPoint, packageDir: string, program: ts.Program): string {
  const source = program.getSourceFile(entry.declarations);
  if (source === undefined) throw new Error(`${entry.declarations} is missing; run \`pnpm build\` first`);
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const exported = moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol);
  const body = exported
    .map((symbol) => ({ name: symbol.name, text: describeExport(symbol.name, symbol, checker) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(({ text }) => text)
    .join('\n\n');
  const targets = new Set(
    exported.map((symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol)),
  );
  const unexported = referencedUnexported(targets, packageDir, checker)
    .map((symbol) => ({ name: symbol.name, text: describeExport(symbol.name, symbol, checker) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [
    `# API report: \`${entry.specifier}\``,
    '',
    '<!-- Generated from the emitted .d.ts by `pnpm api-report` (scripts/api-report); do not edit. `pnpm test` fails when the public surface no longer matches this file. -->',
    '',
    `${exported.length} exports.`,
    '',
    '```ts',
    body,
    '```',
    '',
    ...(unexported.length === 0
      ? []
      : [
          `## Referenced, not exported (${unexported.length})`,
          '',
          'Declarations of this package that the exports above refer to, which this entry point does not export.',
          '',
          '```ts',
          unexported.map(({ text }) => text).join('\n\n'),
          '```',
          '',
        ]),
  ].join('\n');
}

/** One program over every entry point's declarations, so shared files are read once. */
export function declarationsProgram(entries: readonly EntryPoint[]): ts.Program {
  return ts.createProgram(
    entries.map((entry) => entry.declarations),
    {
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: [],
    },
  );
}
