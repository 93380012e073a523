import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReason, sourceHash } from '../scripts/build-stamp.ts';

describe('whether npm start builds', () => {
  it('builds when there is no build, an unfinished one, or one of other sources', () => {
    expect(buildReason({ stamp: null, whole: false }, 'abc')).toBe('there is no build yet');
    expect(buildReason({ stamp: null, whole: true }, 'abc')).toBe(
      'the sources have changed since the last build',
    );
    expect(buildReason({ stamp: 'abc', whole: false }, 'abc')).toBe('the last build is not whole');
    expect(buildReason({ stamp: 'old', whole: true }, 'abc')).toBe(
      'the sources have changed since the last build',
    );
  });

  it('does not build a whole build of the same sources again', () => {
    expect(buildReason({ stamp: 'abc', whole: true }, 'abc')).toBeNull();
  });
});

describe('the hash of the sources', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('changes with a file the build reads, and not with a test file', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'balance-stamp-'));
    mkdirSync(path.join(dir, 'src/client'), { recursive: true });
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(dir, 'src/client/main.tsx'), 'one');
    const first = sourceHash(dir);
    expect(sourceHash(dir)).toBe(first);

    writeFileSync(path.join(dir, 'src/client/main.test.tsx'), 'a test');
    expect(sourceHash(dir)).toBe(first);

    writeFileSync(path.join(dir, 'src/client/main.tsx'), 'two');
    const second = sourceHash(dir);
    expect(second).not.toBe(first);

    writeFileSync(path.join(dir, 'src/client/extra.ts'), '');
    expect(sourceHash(dir)).not.toBe(second);
    rmSync(path.join(dir, 'src/client/extra.ts'));
    expect(sourceHash(dir)).toBe(second);

    writeFileSync(path.join(dir, 'vite.config.ts'), 'export default {}');
    expect(sourceHash(dir)).not.toBe(second);
  });
});
