import { describe, expect, it } from 'vitest';
import { OwnerConcurrencyLimit } from './owner-concurrency-limit.ts';

/** A piece of work that runs until `finish` is called, and says when it started. */
function heldWork(log: string[], name: string) {
  let finish!: (fail?: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    finish = (fail) => (fail ? reject(fail) : resolve(name));
  });
  return {
    work: () => {
      log.push(name);
      return done;
    },
    finish: (fail?: Error) => finish(fail),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const refusal = () => new Error('waited too long');

describe('OwnerConcurrencyLimit', () => {
  it('runs at most the limit of one owner’s work at a time, the rest in the order it came', async () => {
    const gate = new OwnerConcurrencyLimit(2, 60_000, refusal);
    const log: string[] = [];
    const works = ['a1', 'a2', 'a3', 'a4'].map((name) => heldWork(log, name));
    // Settled as they end: a refusal is never left unheard.
    const results = Promise.allSettled(works.map(({ work }) => gate.run('a', work)));
    await turn();
    expect(log).toEqual(['a1', 'a2']);
    works[1]?.finish();
    await turn();
    expect(log).toEqual(['a1', 'a2', 'a3']);
    works[0]?.finish(new Error('refused'));
    await turn();
    expect(log).toEqual(['a1', 'a2', 'a3', 'a4']);
    works[2]?.finish();
    works[3]?.finish();
    const settled = await results;
    expect(settled.map((result) => result.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(gate.owners).toBe(0);
  });

  it('never keeps another owner waiting', async () => {
    const gate = new OwnerConcurrencyLimit(1, 60_000, refusal);
    const log: string[] = [];
    const a = [heldWork(log, 'a1'), heldWork(log, 'a2')];
    const b = heldWork(log, 'b1');
    const results = [...a.map(({ work }) => gate.run('a', work)), gate.run('b', b.work)];
    await turn();
    expect(log).toEqual(['a1', 'b1']);
    expect(gate.owners).toBe(2);
    for (const { finish } of [...a, b]) finish();
    await Promise.all(results);
    expect(log).toEqual(['a1', 'b1', 'a2']);
    expect(gate.owners).toBe(0);
  });

  it('refuses a change that waited too long, and lets the next one in when a place is free', async () => {
    const gate = new OwnerConcurrencyLimit(1, 30, refusal);
    const log: string[] = [];
    const [first, second, third] = ['a1', 'a2', 'a3'].map((name) => heldWork(log, name));
    if (!first || !second || !third) throw new Error('three pieces of work');
    const running = gate.run('a', first.work);
    await expect(gate.run('a', second.work)).rejects.toThrow('waited too long');
    const next = gate.run('a', third.work);
    first.finish();
    await running;
    await turn();
    expect(log).toEqual(['a1', 'a3']);
    third.finish();
    await expect(next).resolves.toBe('a3');
    expect(gate.owners).toBe(0);
  });
});
