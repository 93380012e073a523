// The server's rooms load downwards only (STYLE.md habit 18): routes, commands, the write path,
// repositories, then db/. The linter checks each import of db/ (scripts/eslint/boundaries.js);
// this checks the whole graph, so no chain of imports, types included, leads from db/ back to it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverRoot = path.resolve(import.meta.dirname, '../src/server');

const sourceFiles = (readdirSync(serverRoot, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => path.join(serverRoot, file));

/** Every relative `import ... from`, `export ... from`, bare `import '...'` and `import('...')`. */
const importPattern = /(?:^\s*(?:import|export)\b[^'";]*?['"]|\bimport\(\s*['"])(\.[^'"]+)['"]/gm;

function importGraph(): Map<string, string[]> {
  const known = new Set(sourceFiles);
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles) {
    const targets = [...readFileSync(file, 'utf8').matchAll(importPattern)]
      .map((match) => path.resolve(path.dirname(file), match[1] ?? ''))
      .filter((target) => known.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The files db/ reaches by following imports. */
function reachedFrom(graph: Map<string, string[]>, starts: string[]): Set<string> {
  const reached = new Set<string>();
  const waiting = [...starts];
  for (let file = waiting.pop(); file !== undefined; file = waiting.pop()) {
    for (const target of graph.get(file) ?? []) {
      if (reached.has(target)) continue;
      reached.add(target);
      waiting.push(target);
    }
  }
  return reached;
}

const relative = (file: string) => path.relative(serverRoot, file).split(path.sep).join('/');

describe('the server rooms', () => {
  it('leave db/ on no chain of imports back to itself through what sits above it', () => {
    const graph = importGraph();
    const db = sourceFiles.filter((file) => relative(file).startsWith('db/'));
    const aboveDb = [...reachedFrom(graph, db)].filter((file) => !relative(file).startsWith('db/'));
    // Of the modules, only the tables' types: no command, write path or repository.
    expect(
      aboveDb
        .map(relative)
        .filter((file) => file.startsWith('modules/') && !file.endsWith('.table.ts')),
    ).toEqual([]);
    // And nothing db/ reaches leads back into db/: no circle through the rooms above it.
    const backIntoDb = aboveDb.flatMap((file) =>
      (graph.get(file) ?? [])
        .filter((target) => relative(target).startsWith('db/'))
        .map((target) => `${relative(file)} -> ${relative(target)}`),
    );
    expect(backIntoDb).toEqual([]);
  });
});
