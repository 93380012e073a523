import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CommitMemory } from './commit-memory.ts';

/** A read that counts its calls and answers `value`, or waits for `gate` first. */
function countedRead<V>(value: V, gate?: Promise<void>) {
  const read = async () => {
    read.calls += 1;
    await gate;
    return value;
  };
  read.calls = 0;
  return read;
}

describe('CommitMemory', () => {
  it('answers a key read before from memory, without reading again', async () => {
    const memory = new CommitMemory<number>({ maxAgeMs: 60_000, maxEntries: 10 });
    const read = countedRead(7);
    expect(await memory.read('a', read)).toBe(7);
    expect(await memory.read('a', read)).toBe(7);
    expect(read.calls).toBe(1);
  });

  it('reads again after the key, or every key, is forgotten', async () => {
    const memory = new CommitMemory<number>({ maxAgeMs: 60_000, maxEntries: 10 });
    await memory.read('a', countedRead(1));
    await memory.read('b', countedRead(2));
    memory.forget('a');
    expect(await memory.read('a', countedRead(10))).toBe(10);
    expect(await memory.read('b', countedRead(20))).toBe(2);
    memory.forgetAll();
    expect(await memory.read('a', countedRead(100))).toBe(100);
    expect(await memory.read('b', countedRead(200))).toBe(200);
  });

  it('keeps nothing a read brought back after a forget made while it ran', async () => {
    const memory = new CommitMemory<string>({ maxAgeMs: 60_000, maxEntries: 10 });
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    // The read starts before a commit and answers after it: its value is the old one.
    const before = memory.read('a', countedRead('old', gate));
    memory.forget('a');
    open();
    expect(await before).toBe('old');
    const after = countedRead('new');
    expect(await memory.read('a', after)).toBe('new');
    expect(after.calls).toBe(1);
  });

  it('does not keep what is not there, so unknown keys cannot fill it', async () => {
    const memory = new CommitMemory<number>({ maxAgeMs: 60_000, maxEntries: 10 });
    const missing = countedRead<number | undefined>(undefined);
    expect(await memory.read('nobody', missing)).toBeUndefined();
    expect(await memory.read('nobody', missing)).toBeUndefined();
    expect(missing.calls).toBe(2);
    expect(memory.size).toBe(0);
  });

  it('reads again once a value is older than its age limit', async () => {
    const memory = new CommitMemory<number>({ maxAgeMs: 20, maxEntries: 10 });
    const read = countedRead(3);
    await memory.read('a', read);
    await sleep(40);
    await memory.read('a', read);
    expect(read.calls).toBe(2);
  });

  it('starts again when full instead of growing', async () => {
    const memory = new CommitMemory<number>({ maxAgeMs: 60_000, maxEntries: 3 });
    for (const key of ['a', 'b', 'c']) await memory.read(key, countedRead(1));
    expect(memory.size).toBe(3);
    await memory.read('d', countedRead(1));
    expect(memory.size).toBe(1);
  });
});
