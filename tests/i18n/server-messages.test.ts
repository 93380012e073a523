import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { translate } from '../../src/server/i18n.ts';
import {
  entryKindLabels,
  paymentMethodInSentence,
  paymentMethodLabels,
} from '../../src/shared/schemas/ledger.ts';
import { statementBucketLabels } from '../../src/shared/schemas/statement.ts';

const root = join(import.meta.dirname, '..', '..');
const sharedDir = join(root, 'src', 'shared');
const serverDir = join(root, 'src', 'server');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

function readCatalogue(locale: string): Record<string, string> {
  return JSON.parse(readFileSync(join(sharedDir, 'messages', `${locale}.json`), 'utf8')) as Record<
    string,
    string
  >;
}

/**
 * Where the server writes a message for a person, by the called function's name: the argument
 * that holds the English text (see src/server/errors.ts and src/server/i18n.ts).
 */
const serverMessageArguments: Record<string, number> = {
  AppError: 2,
  notFound: 0,
  tooMany: 0,
  fieldError: 1,
  localErrorReply: 2,
  translate: 1,
  problem: 1,
  fileProblem: 0,
  cellProblem: 2,
  transactionProblem: 1,
  label: 0,
};

/** Object properties whose string values are messages for a person. */
const messageProperties = new Set(['message', 'error', 'text']);

/** A zod message reads as a sentence: "Use at most 100 characters." */
const isSentence = (text: string) => /^\p{Lu}.*\s.*\.$/su.test(text);

/** The operator's start-up messages and the database's internals are not for the app's users. */
const notForUsers = (path: string) => /src\/server\/(config\.ts|db\/|modules\/health\/)/.test(path);
const files = [...filesUnder(serverDir), ...filesUnder(sharedDir)].filter(
  (path) => !notForUsers(path),
);
const program = ts.createProgram(files, {
  allowImportingTsExtensions: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  resolveJsonModule: true,
});
const checker = program.getTypeChecker();

/**
 * The one fixed text an expression stands for: a literal, or a template whose parts are
 * constants (`Use at most ${max} characters.` with `const max = 100`). Null when it depends on
 * a value known only at run time.
 */
function fixedText(node: ts.Expression, depth = 0): string | null {
  if (depth > 8) return null;
  if (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node)
  )
    return fixedText(node.expression, depth + 1);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return String(Number(node.text));
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const value = fixedText(node.operand, depth + 1);
    return value === null ? null : `-${value}`;
  }
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const value = fixedText(span.expression, depth + 1);
      if (value === null) return null;
      text += value + span.literal.text;
    }
    return text;
  }
  if (ts.isIdentifier(node)) {
    const initializer = constantInitializer(node);
    return initializer ? fixedText(initializer, depth + 1) : null;
  }
  // `${sorts.join(', ')}` with `const sorts = ['name', 'balance'] as const`
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'join' &&
    ts.isIdentifier(node.expression.expression)
  ) {
    let list = constantInitializer(node.expression.expression);
    while (list && (ts.isAsExpression(list) || ts.isSatisfiesExpression(list)))
      list = list.expression;
    const separator = node.arguments[0] ? fixedText(node.arguments[0], depth + 1) : ',';
    if (!list || !ts.isArrayLiteralExpression(list) || separator === null) return null;
    const items = list.elements.map((element) => fixedText(element, depth + 1));
    return items.every((item) => item !== null) ? items.join(separator) : null;
  }
  return null;
}

function constantInitializer(identifier: ts.Identifier): ts.Expression | undefined {
  let symbol = checker.getSymbolAtLocation(identifier);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  if (
    declaration &&
    ts.isVariableDeclaration(declaration) &&
    declaration.initializer &&
    ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const
  )
    return declaration.initializer;
  return undefined;
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return '';
}

const isStringish = (
  node: ts.Node,
): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression =>
  ts.isStringLiteral(node) ||
  ts.isNoSubstitutionTemplateLiteral(node) ||
  ts.isTemplateExpression(node);

/** Every message written in English in the server and the shared code, with where it is. */
function writtenMessages(): { texts: Map<string, string>; runtime: string[] } {
  const texts = new Map<string, string>();
  const runtime: string[] = [];
  for (const source of program.getSourceFiles()) {
    const path = source.fileName;
    if (!files.includes(path)) continue;
    const inServer = path.startsWith(serverDir);
    const where = (node: ts.Node) =>
      `${relative(root, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const note = (node: ts.Expression) => {
      const text = fixedText(node);
      if (text === null) runtime.push(`${where(node)} ${node.getText()}`);
      else if (!texts.has(text)) texts.set(text, where(node));
    };
    const visit = (node: ts.Node) => {
      if (inServer && (ts.isCallExpression(node) || ts.isNewExpression(node))) {
        const position = serverMessageArguments[calleeName(node)];
        const argument = position === undefined ? undefined : node.arguments?.[position];
        const candidates =
          argument && ts.isConditionalExpression(argument)
            ? [argument.whenTrue, argument.whenFalse]
            : argument
              ? [argument]
              : [];
        for (const candidate of candidates) {
          // A name stands for a constant message; any other name is not a message of ours.
          if (
            isStringish(candidate) ||
            (ts.isIdentifier(candidate) && fixedText(candidate) !== null)
          )
            note(candidate);
        }
      }
      if (ts.isPropertyAssignment(node) && isStringish(node.initializer)) {
        const name = node.name.getText();
        const inFields =
          ts.isObjectLiteralExpression(node.parent) &&
          ts.isPropertyAssignment(node.parent.parent) &&
          node.parent.parent.name.getText() === 'fields';
        if (
          inFields ||
          (messageProperties.has(name) &&
            (inServer || isSentence(node.initializer.getText().slice(1, -1))))
        )
          note(node.initializer);
      }
      if (!inServer && isStringish(node) && !ts.isPropertyAssignment(node.parent)) {
        const text = fixedText(node);
        if (text !== null && isSentence(text) && !texts.has(text)) texts.set(text, where(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { texts, runtime };
}

describe('the server and shared messages', () => {
  const { texts, runtime } = writtenMessages();

  it('finds the messages it looks for', () => {
    if (process.env.DUMP_MESSAGES)
      writeFileSync(process.env.DUMP_MESSAGES, JSON.stringify([...texts], null, 1));
    expect(texts.has('Invalid email or password')).toBe(true);
    expect(texts.has('Use at most 100 characters.')).toBe(true);
    expect(texts.size).toBeGreaterThan(100);
  });

  it('writes a runtime value as a placeholder, so the message can be translated', () => {
    expect(runtime).toEqual([]);
  });

  it('says each English message exactly as written, and compiles every translation', () => {
    for (const [text] of texts) {
      if (/\{\w+\}/.test(text)) continue;
      expect(translate('en', text, {})).toBe(text);
      for (const locale of ['ko', 'ms'] as const)
        expect(translate(locale, text, {}).length, `${locale} ${text}`).toBeGreaterThan(0);
    }
  });

  it.each(['ko', 'ms'])('has every message in %s', (locale) => {
    const catalogue = readCatalogue(locale);
    // The labels the statement PDF shows, kept in shared tables rather than written at a call.
    const labels = [
      ...Object.values(entryKindLabels),
      ...Object.values(statementBucketLabels),
      ...Object.values(paymentMethodLabels),
      ...Object.values(paymentMethodInSentence),
    ];
    const missing = [...texts, ...labels.map((label) => [label, 'label'] as const)]
      .filter(([text]) => !(text in catalogue))
      .map(([text, at]) => `${at} ${text}`);
    expect(missing).toEqual([]);
  });
});
