import { afterEach, beforeEach, vi } from 'vitest';

// A test that makes something log console.error has hidden a failure: fail it.
let logged: unknown[][] = [];

beforeEach(() => {
  logged = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    logged.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (logged.length > 0) {
    const first = logged[0]
      ?.map((part) => (part instanceof Error ? part.stack : String(part)))
      .join(' ');
    throw new Error(`console.error was called ${logged.length} time(s); first: ${first}`);
  }
});
