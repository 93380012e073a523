import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { checkJsonShape, JsonShapeCheck, tooManyValues } from './json-shape.ts';

const bytes = (text: string) => Buffer.from(text);

/** A restore file's ledger as the export writes it, with every value as short as it can be. */
function leanLedger(entries: number): string {
  const entry = {
    id: 'e',
    clientId: 'c',
    kind: 'charge',
    amount: 1,
    currency: 'KRW',
    date: '2026-01-01',
    dueDate: null,
    note: '',
    voidOf: null,
    enteredAt: '2026-01-01T00:00:00.000Z',
  };
  return JSON.stringify({
    format: 'balance-export',
    version: 2,
    entries: Array.from({ length: entries }, () => entry),
  });
}

describe('the shape of a JSON body', () => {
  it('takes a long ledger of the leanest entries the export writes', () => {
    expect(() => checkJsonShape(bytes(leanLedger(50_000)))).not.toThrow();
  });

  it.each([
    ['empty arrays', '[],'],
    ['empty objects', '{},'],
    ['zeros', '0,'],
    ['one-letter strings', '"a",'],
  ])('refuses a body that is mostly %s', (_, unit) => {
    const body = `{"format":"balance-export","version":2,"x":[${unit.repeat(200_000)}0]}`;
    expect(() => checkJsonShape(bytes(body))).toThrow(
      expect.objectContaining({ status: 400, message: tooManyValues().message }),
    );
  });

  it('refuses a wide body part-way, before the rest has arrived', () => {
    const check = new JsonShapeCheck();
    check.read(bytes('{"x":['));
    expect(() => {
      for (let chunk = 0; chunk < 100; chunk += 1) check.read(bytes('[],'.repeat(10_000)));
    }).toThrow(AppError);
  });

  it('does not count commas and brackets inside strings', () => {
    const note = JSON.stringify({ note: '[],{},'.repeat(100_000) });
    expect(() => checkJsonShape(bytes(note))).not.toThrow();
  });
});
