import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { quoteProblem } from './csv-mapping.ts';

describe('quoteProblem', () => {
  it('names a quote that is never closed, which would swallow the rows after it', () => {
    const parsed = Papa.parse<string[]>('first,last\nAda,"Love\nGrace,Hopper\nAlan,Turing\n', {
      skipEmptyLines: 'greedy',
    });
    expect(quoteProblem(parsed.errors)).toEqual({ line: 2 });
    expect(quoteProblem(parsed.errors, 1000)).toEqual({ line: 1002 });
  });

  it('has nothing to say about a clean file, quotes and all', () => {
    const parsed = Papa.parse<string[]>(
      'first,last\n"Ada, Countess",Lovelace\n"Grace ""Amazing""",Hopper\n',
      {
        skipEmptyLines: 'greedy',
      },
    );
    expect(parsed.data).toHaveLength(3);
    expect(quoteProblem(parsed.errors)).toBeNull();
  });
});
