import { describe, expect, it } from 'vitest';
import { sharedWhileRunning } from './shared-work.ts';

/** A piece of work that ends when told to, counting how often it was started. */
function gatedWork() {
  let starts = 0;
  let finish: (value: number) => void = () => {};
  const work = () => {
    starts += 1;
    return new Promise<number>((resolve) => {
      finish = resolve;
    });
  };
  return { work, starts: () => starts, finish: (value: number) => finish(value) };
}

describe('sharedWhileRunning', () => {
  it('runs the work once for callers of one key while it runs, and again once it settled', async () => {
    const shared = sharedWhileRunning<number>();
    const gate = gatedWork();
    const first = shared('owner 7', gate.work);
    const second = shared('owner 7', gate.work);
    expect(gate.starts()).toBe(1);
    gate.finish(1);
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    const third = shared('owner 7', gate.work);
    expect(gate.starts()).toBe(2);
    gate.finish(2);
    expect(await third).toBe(2);
  });

  it('runs the work of another key apart, and lets a failure reach every caller without keeping it', async () => {
    const shared = sharedWhileRunning<number>();
    const gate = gatedWork();
    const one = shared('owner 7', gate.work);
    const other = shared('owner 8', async () => 8);
    expect(await other).toBe(8);
    expect(gate.starts()).toBe(1);
    gate.finish(7);
    expect(await one).toBe(7);
    const failing = shared('owner 9', () => Promise.reject(new Error('no database')));
    await expect(failing).rejects.toThrow('no database');
    expect(await shared('owner 9', async () => 9)).toBe(9);
  });
});
