import { describe, expect, it } from 'vitest';

// The components' source text, read by the bundler, as this room may not import Node's fs.
const sources = import.meta.glob<string>(['./**/*.tsx', '!./**/*.test.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('the forms of the browser app', () => {
  it('every form keeps its fields in react-hook-form, checked by a shared schema', () => {
    const withForm = Object.entries(sources).filter(([, source]) => source.includes('<form'));
    // A form held in useState repeats the markup and its checks, and its messages drift from the server's.
    const outsideReactHookForm = withForm
      .filter(([, source]) => !/\buseForm\b/.test(source))
      .map(([path]) => path);
    expect(withForm.length).toBeGreaterThan(5);
    expect(outsideReactHookForm).toEqual([]);
  });
});
