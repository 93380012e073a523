import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './server-process.ts';

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(projectRoot, file), 'utf8')) as T;
}

describe('npm install', () => {
  // .npmrc hides npm's warnings (decision 022), its notice of an install script that is neither
  // approved nor denied among them: a new dependency with one must be decided here instead.
  it('meets no install script that package.json neither allows nor denies', () => {
    const { allowScripts } = readJson<{ allowScripts: Record<string, boolean> }>('package.json');
    const lock = readJson<{ packages: Record<string, { hasInstallScript?: boolean }> }>(
      'package-lock.json',
    );
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([where]) => where.replace(/^.*node_modules\//, ''));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => !(name in allowScripts))).toEqual([]);
  });
});
