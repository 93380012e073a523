/** A minimal reader of our live stream over real HTTP, for tests. */
export interface StreamMessage {
  event: string;
  id: string | null;
  data: string;
}

export interface TestStream {
  status: number;
  messages: StreamMessage[];
  /** Resolves with the first message (from the start) that matches; rejects after `timeoutMs`. */
  waitFor(match: (message: StreamMessage) => boolean, timeoutMs?: number): Promise<StreamMessage>;
  ended: Promise<void>;
  close(): void;
}

export async function openStream(
  baseUrl: string,
  cookie: string,
  lastEventId?: number,
  headers: Record<string, string> = {},
  /** The query after `/api/events`, with its `?`. */
  query = '',
): Promise<TestStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events${query}`, {
    headers: {
      ...headers,
      ...(cookie ? { cookie } : {}),
      ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
    },
    signal: controller.signal,
  });
  const messages: StreamMessage[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((waiter) => waiter());

  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: StreamMessage = { event: 'message', id: null, data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) message.event = line.slice(7);
            else if (line.startsWith('id: ')) message.id = line.slice(4);
            else if (line.startsWith('data: ')) {
              message.data = line.slice(6);
              hasData = true;
            }
          }
          if (hasData) {
            messages.push(message);
            notify();
          }
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      notify();
    }
  })();

  return {
    status: response.status,
    messages,
    ended,
    close: () => controller.abort(),
    waitFor: (match, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found) {
            cleanup();
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
  };
}
