import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleSize {
  files: { name: string; rawBytes: number; gzipBytes: number }[];
  rawBytes: number;
  gzipBytes: number;
  builtAt: Date;
}

/** Static imports of a built chunk (`import{x}from"./a.js"`, `export*from"./b.js"`), not `import()`. */
const staticImport = /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.js)["']/g;
/** `import("./a.js")`, whatever the quotes the minifier chose. */
const dynamicImport = /\bimport\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g;

/**
 * The JavaScript the first page loads: the module script and modulepreload links of index.html,
 * plus anything those import statically. Chunks loaded with import() are left out, except those
 * whose file name matches `alsoLazy` (the signed-in dashboard is such a chunk: an owner's first
 * page loads it at once). Each file is gzipped on its own at zlib's default level, as a
 * compressing server would send it.
 */
export function firstPageJs(clientDir: string, alsoLazy?: RegExp): BundleSize {
  const indexFile = path.join(clientDir, 'index.html');
  const html = readFileSync(indexFile, 'utf8');
  const queue: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isModule = tag.startsWith('<script') && /type=["']module["']/.test(tag);
    const isPreload = tag.startsWith('<link') && /rel=["']modulepreload["']/.test(tag);
    const url = /(?:src|href)=["']([^"']+)["']/.exec(tag)?.[1];
    if ((isModule || isPreload) && url) queue.push(url.replace(/^\//, ''));
  }
  if (queue.length === 0) throw new Error(`no module script in ${indexFile}`);

  const seen = new Set<string>();
  const files: BundleSize['files'] = [];
  while (queue.length > 0) {
    const name = path.posix.normalize(queue.shift() as string);
    if (seen.has(name)) continue;
    seen.add(name);
    const file = path.join(clientDir, name);
    if (!existsSync(file))
      throw new Error(`index.html names ${name}, which is not in ${clientDir}`);
    const content = readFileSync(file);
    files.push({ name, rawBytes: content.length, gzipBytes: gzipSync(content).length });
    const code = content.toString('utf8');
    const targets = [...code.matchAll(staticImport)].map((match) => match[1] as string);
    if (alsoLazy) {
      for (const match of code.matchAll(dynamicImport)) {
        const target = match[1] as string;
        if (alsoLazy.test(path.posix.basename(target))) targets.push(target);
      }
    }
    for (const target of targets) {
      if (target.startsWith('.')) queue.push(path.posix.join(path.posix.dirname(name), target));
      else if (target.startsWith('/')) queue.push(target.slice(1));
    }
  }
  return {
    files,
    rawBytes: files.reduce((sum, file) => sum + file.rawBytes, 0),
    gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0),
    builtAt: statSync(indexFile).mtime,
  };
}
