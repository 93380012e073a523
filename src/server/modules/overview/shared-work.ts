/**
 * Work that callers asking for the same key at the same time share: the first starts it, the
 * others wait for its answer; once it settles, the next caller starts it again. Nothing is kept
 * after it settles (decision 015).
 */
export function sharedWhileRunning<T>(): (key: string, work: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, work) => {
    const current = running.get(key);
    if (current) return current;
    const started = work().finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
}
