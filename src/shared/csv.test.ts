import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { protectCell, unprotectCell } from './csv.ts';

describe('CSV cells', () => {
  it('defuse text a spreadsheet would run as a formula', () => {
    expect(protectCell('=HYPERLINK("http://evil.example","x")')).toBe(
      '\'=HYPERLINK("http://evil.example","x")',
    );
    expect(protectCell('+44 20 7946 0018')).toBe("'+44 20 7946 0018");
    expect(protectCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(protectCell('-2')).toBe("'-2");
    expect(protectCell('Ada')).toBe('Ada');
    expect(protectCell("O'Brien")).toBe("O'Brien");
  });

  it('come back unchanged through the import', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(unprotectCell(protectCell(text))).toBe(text);
      }),
    );
  });
});
