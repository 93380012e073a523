import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadChunk } from './load-chunk.ts';

/** What the browser says of its network, as the test sets it. */
let browserOnline = true;

describe('loadChunk', () => {
  beforeEach(() => {
    browserOnline = true;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => browserOnline });
  });
  afterEach(() => {
    // The prototype's own getter again.
    Reflect.deleteProperty(navigator, 'onLine');
    vi.useRealTimers();
  });

  it('fetches a chunk again once the browser is back online', async () => {
    browserOnline = false;
    let calls = 0;
    const loading = loadChunk(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve('x');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    browserOnline = true;
    window.dispatchEvent(new Event('online'));
    await expect(loading).resolves.toBe('x');
    expect(calls).toBe(2);
  });

  it('tries twice more while online, then gives the error to the page', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const loading = loadChunk(() => {
      calls += 1;
      return Promise.reject(new TypeError(`Failed to fetch ${calls}`));
    });
    const outcome = expect(loading).rejects.toThrow('Failed to fetch 3');
    await vi.runAllTimersAsync();
    await outcome;
    expect(calls).toBe(3);
  });
});
