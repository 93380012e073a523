import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { locales } from '../../src/shared/locales.ts';

const clientDir = join(import.meta.dirname, '..', '..', 'src', 'client');
const localesDir = join(clientDir, 'locales');

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function readCatalogue(path: string): Record<string, string> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
}

/** The catalogue files of English, by their path below the language's folder ("pages/x.json"). */
const englishFiles = filesUnder(join(localesDir, 'en'), (name) => name.endsWith('.json')).map(
  (path) => relative(join(localesDir, 'en'), path),
);

/** The names a message fills in ("{count, plural, ...}" and "{name}" both name one). */
function placeholders(message: string): string[] {
  return [
    ...new Set([...message.matchAll(/\{\s*([A-Za-z_]\w*)\s*[,}]/g)].map((m) => m[1]!)),
  ].sort();
}

const english = new Map<string, string>();
for (const file of englishFiles) {
  for (const [key, text] of Object.entries(readCatalogue(join(localesDir, 'en', file)))) {
    english.set(key, text);
  }
}

describe('the catalogues', () => {
  it.each(englishFiles)('%s holds its own area and every language has every key', (file) => {
    const area = file.replace(/^pages\//, '').replace(/\.json$/, '');
    const en = readCatalogue(join(localesDir, 'en', file));
    for (const key of Object.keys(en)) expect(key.startsWith(`${area}.`), key).toBe(true);
    for (const locale of locales) {
      const catalogue = readCatalogue(join(localesDir, locale, file));
      expect(Object.keys(catalogue).sort(), `${locale}/${file}`).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(catalogue)) {
        expect(text.trim().length, `${locale} ${key} is empty`).toBeGreaterThan(0);
        expect(placeholders(text), `${locale} ${key} fills in other names`).toEqual(
          placeholders(en[key]!),
        );
      }
    }
  });

  it('no language has a file English does not have', () => {
    for (const locale of locales) {
      const files = filesUnder(join(localesDir, locale), (name) => name.endsWith('.json')).map(
        (path) => relative(join(localesDir, locale), path),
      );
      expect(files.sort()).toEqual([...englishFiles].sort());
    }
  });

  it('the shared messages have the same texts in every language', () => {
    const sharedDir = join(clientDir, '..', 'shared', 'messages');
    const ko = readCatalogue(join(sharedDir, 'ko.json'));
    const ms = readCatalogue(join(sharedDir, 'ms.json'));
    expect(Object.keys(ms).sort()).toEqual(Object.keys(ko).sort());
    for (const [englishText, text] of [...Object.entries(ko), ...Object.entries(ms)]) {
      expect(text.trim().length, englishText).toBeGreaterThan(0);
      expect(placeholders(text), englishText).toEqual(placeholders(englishText));
    }
  });
});

const sourceFiles = filesUnder(
  clientDir,
  (name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name),
);

describe('the source', () => {
  it('asks only for keys that English has', () => {
    const missing: string[] = [];
    for (const path of sourceFiles) {
      const source = readFileSync(path, 'utf8');
      for (const match of source.matchAll(/\b(?:t|i18n\._)\(\s*['"]([\w.-]+)['"]/g)) {
        if (!english.has(match[1]!)) missing.push(`${relative(clientDir, path)}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  // Words shown to the user belong in the catalogues; these attributes are read out or shown.
  const shownAttributes = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label']);

  /**
   * Reads as words for a person: "Add Client", "Dashboard", "Loading…", "is already taken.".
   * Not a key ("tokens.apiReference"), a name in code ("currentPassword", "ApiError") or a
   * path.
   */
  const looksLikeWords = (text: string) => {
    if (/[\u3131-\uD79D]/u.test(text)) return true;
    if (/^[\w-]+(\.[\w-]+)+$/.test(text)) return false;
    if (!/\s/.test(text.trim())) return /^\p{Lu}\p{Ll}+[.!?…:]?$/u.test(text.trim());
    return /\p{Lu}\p{Ll}/u.test(text) || /\p{L}\s\p{L}.*[.!?…:]$/u.test(text);
  };

  /** Literals that are not shown: module names, developer errors, keys and a marked line. */
  function isExempt(node: ts.Node, source: ts.SourceFile): boolean {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
    const lineText = source.text.split('\n')[line] ?? '';
    if (
      /i18n-ignore/.test(lineText) ||
      /i18n-ignore/.test(source.text.split('\n')[line - 1] ?? '')
    ) {
      return true;
    }
    for (let up: ts.Node | undefined = node.parent; up; up = up.parent) {
      if (ts.isImportDeclaration(up) || ts.isExportDeclaration(up) || ts.isLiteralTypeNode(up)) {
        return true;
      }
      // A built-in error is for developers; an ApiError's message is shown to the user.
      if (
        ts.isNewExpression(up) &&
        /^(Error|RangeError|TypeError)$/.test(up.expression.getText())
      ) {
        return true;
      }
      if (ts.isCallExpression(up) && /^console\./.test(up.expression.getText())) return true;
      if (
        ts.isJsxAttribute(up) &&
        /^(className|data-|id$|htmlFor$|type$|role$)/.test(up.name.getText())
      ) {
        return true;
      }
    }
    return false;
  }

  it('writes no text for the user outside the catalogues', () => {
    const found: string[] = [];
    for (const path of sourceFiles) {
      const source = ts.createSourceFile(
        path,
        readFileSync(path, 'utf8'),
        ts.ScriptTarget.Latest,
        true,
      );
      const where = (node: ts.Node) =>
        `${relative(clientDir, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      const visit = (node: ts.Node) => {
        if (ts.isJsxText(node) && /\p{L}/u.test(node.text)) {
          found.push(`${where(node)} ${JSON.stringify(node.text.trim())}`);
        }
        if (
          ts.isJsxAttribute(node) &&
          shownAttributes.has(node.name.getText()) &&
          node.initializer &&
          ts.isStringLiteral(node.initializer) &&
          /\p{L}/u.test(node.initializer.text)
        ) {
          found.push(
            `${where(node)} ${node.name.getText()}=${JSON.stringify(node.initializer.text)}`,
          );
        } else if (
          (ts.isStringLiteral(node) ||
            ts.isNoSubstitutionTemplateLiteral(node) ||
            ts.isTemplateHead(node) ||
            ts.isTemplateMiddle(node) ||
            ts.isTemplateTail(node)) &&
          !ts.isJsxAttribute(node.parent) &&
          !(ts.isPropertyAssignment(node.parent) && node.parent.name === node) &&
          looksLikeWords(node.text) &&
          !isExempt(node, source)
        ) {
          found.push(`${where(node)} ${JSON.stringify(node.text)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });
});
