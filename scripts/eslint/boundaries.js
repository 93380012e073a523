// The three source rooms and who may import whom (docs/architecture.md):
// shared imports neither side and nothing from Node or the DOM; client and server never import
// each other; one client feature never reaches into another (a page that shows several, such as
// the client's page with its ledger, link and reminders, composes them in src/client/app/routes,
// which may import any feature). On the server, SQL is built in a
// module's `*.queries.ts` (its reads) and `*.repository.ts` (its writes, including the raw row
// writers). A repository is private to its module, and no route imports one: routes read
// through `*.queries.ts` and change data through `*.commands.ts` (an owner's data through the
// one write path). A `*.queries.ts` imports no repository (a repository may use its module's
// queries: the row mappers, a read inside a write), names each thing it exports, and none is a
// writer (insert..., update..., delete..., set..., take..., replace..., upsert...): it cannot
// hand a route a writer under its own name.
// The database room (src/server/db) never loads what sits above it: it may name the tables'
// types (`import type` of a module's *.table.ts) and use errors.ts and the configuration's
// types; what runs a command is handed to it from above.
import { builtinModules } from 'node:module';
import path from 'node:path';

const srcRoot = path.resolve(import.meta.dirname, '../../src');
const nodeBuiltins = new Set(builtinModules);

function locate(file) {
  const relative = path.relative(srcRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const parts = relative.split(path.sep);
  const [room, second, third] = parts;
  return {
    room,
    feature: room === 'client' && second === 'features' ? third : null,
    serverModule: room === 'server' && second === 'modules' ? third : null,
    inDb: room === 'server' && second === 'db',
    file: parts[parts.length - 1],
    path: parts,
  };
}

function isNodeModule(source) {
  return source.startsWith('node:') || nodeBuiltins.has(source.split('/')[0]);
}

/** Above db/ but fine for it: the error type, and (types only) the configuration and tables. */
function dbMayImport(to, typeOnly) {
  if (to.room === 'shared' || to.inDb) return true;
  if (to.room !== 'server') return false;
  const top = to.serverModule === null && to.path.length === 2;
  if (top && to.file === 'errors.ts') return true;
  if (!typeOnly) return false;
  return (top && to.file === 'config.ts') || (to.serverModule && to.file.endsWith('.table.ts'));
}

function problemOf(from, source, filename, typeOnly) {
  if (!source.startsWith('.')) {
    if ((from.room === 'shared' || from.room === 'client') && isNodeModule(source)) {
      return `src/${from.room} runs in the browser too and may not import the Node module "${source}"`;
    }
    if (from.room === 'shared' && /^(react|react-dom|react-router)(\/|$)/.test(source)) {
      return `src/shared may not import "${source}": it is used by the server too`;
    }
    return null;
  }
  const to = locate(path.resolve(path.dirname(filename), source));
  if (!to) return null;
  if (from.room === 'shared' && to.room !== 'shared')
    return `src/shared may not import from src/${to.room}`;
  if (from.room === 'client' && to.room === 'server')
    return 'src/client may not import from src/server';
  if (from.room === 'server' && to.room === 'client')
    return 'src/server may not import from src/client';
  if (from.inDb && !from.file.endsWith('.test.ts') && !dbMayImport(to, typeOnly))
    return `src/server/db may not load src/${to.path.join('/')}: a lower room never loads an upper one; hand what it needs down as a value`;
  if (to.serverModule && to.file.endsWith('.repository.ts')) {
    if (from.file.endsWith('.queries.ts'))
      return 'a *.queries.ts reads: it may not import a repository, whose SQL writes';
    if (from.serverModule !== to.serverModule)
      return `the repository of server module "${to.serverModule}" is private to it; use its *.queries.ts or *.commands.ts`;
    if (from.file.endsWith('.routes.ts'))
      return 'a route may not import a repository: read through *.queries.ts, change data through *.commands.ts';
  }
  if (from.feature && to.feature && from.feature !== to.feature) {
    return `feature "${from.feature}" may not reach into feature "${to.feature}"; move what both need to src/client/components or lib, or compose the two in the route page (src/client/app/routes)`;
  }
  return null;
}

const writerName = /^(insert|update|delete|set|take|replace|upsert)([A-Z]|$)/;

/** The names an `export ...` statement gives its file, and (renamed on the way) what they were. */
function exportedNames(node) {
  const names = node.specifiers.flatMap((specifier) => [specifier.exported, specifier.local]);
  const declaration = node.declaration;
  if (declaration?.id) names.push(declaration.id);
  for (const declarator of declaration?.declarations ?? []) names.push(declarator.id);
  return names.filter(
    (name, index) =>
      name?.type === 'Identifier' &&
      names.findIndex((other) => other?.name === name.name) === index,
  );
}

const rule = {
  meta: { type: 'problem', schema: [], messages: { crossing: '{{problem}}' } },
  create(context) {
    const from = locate(context.filename);
    if (!from) return {};
    const checkQueriesExport = (node) => {
      if (!from.file.endsWith('.queries.ts')) return;
      if (node.type === 'ExportAllDeclaration') {
        const problem =
          'a *.queries.ts names each reader it exports: `export *` would pass on the writers too';
        context.report({ node, messageId: 'crossing', data: { problem } });
        return;
      }
      for (const name of exportedNames(node)) {
        if (!writerName.test(name.name)) continue;
        const problem = `a *.queries.ts exports readers only; "${name.name}" changes data: export it from *.commands.ts as part of a whole change`;
        context.report({ node: name, messageId: 'crossing', data: { problem } });
      }
    };
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const typeOnly = node.importKind === 'type' || node.exportKind === 'type';
      const problem = problemOf(from, node.source.value, context.filename, typeOnly);
      if (problem) context.report({ node: node.source, messageId: 'crossing', data: { problem } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: (node) => {
        check(node);
        checkQueriesExport(node);
      },
      ExportAllDeclaration: (node) => {
        check(node);
        checkQueriesExport(node);
      },
      ImportExpression: check,
    };
  },
};

export default { rules: { rooms: rule } };
