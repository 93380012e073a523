/** Resolves once the browser says it is online again (at once if it is). */
function online(): Promise<void> {
  if (navigator.onLine) return Promise.resolve();
  return new Promise((resolve) =>
    window.addEventListener('online', () => resolve(), { once: true }),
  );
}

const retryDelaysMs = [1000, 3000];

/**
 * Loads a chunk of the app (a page's code, the charts, a language's texts). A chunk that could
 * not be fetched because the network dropped is fetched again once the browser is back online,
 * and a failure while online is tried twice more, so a blip of the network shows a spinner a
 * little longer instead of an error in place of the page.
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  for (let retries = 0; ;) {
    try {
      return await load();
    } catch (error) {
      if (!navigator.onLine) {
        await online();
        continue;
      }
      const delay = retryDelaysMs[retries];
      if (delay === undefined) throw error;
      retries += 1;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
