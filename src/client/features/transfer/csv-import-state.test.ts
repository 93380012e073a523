import { describe, expect, it } from 'vitest';
import { csvImportReducer, initialCsvImport, type CsvImportState } from './csv-import-state.ts';
import { guessMapping } from './csv-mapping.ts';

const read = (): CsvImportState =>
  csvImportReducer(initialCsvImport, {
    type: 'read',
    file: { name: 'clients.csv', header: ['First Name', 'Last Name'], lines: [['Ada', 'L']] },
    mapping: guessMapping(['First Name', 'Last Name']),
  });

describe('the CSV import’s steps', () => {
  it('a new file clears what went wrong with the one before', () => {
    let state = csvImportReducer(initialCsvImport, {
      type: 'failed',
      error: { kind: 'no-rows' },
      back: 'choose',
    });
    expect(state).toMatchObject({ error: { kind: 'no-rows' }, stage: { step: 'choose' } });
    state = csvImportReducer(state, { type: 'read-started' });
    expect(state).toMatchObject({ error: null, stage: { step: 'reading', progress: 0 } });
  });

  it('a column or the duplicates changed after a check asks for the check again', () => {
    const result = { imported: 0, results: [], balancesZeroed: false };
    let state = csvImportReducer(read(), { type: 'checked', result });
    expect(state.stage).toEqual({ step: 'preview', result });
    state = csvImportReducer(state, { type: 'column', field: 'email', column: 1 });
    expect(state.stage).toEqual({ step: 'mapping' });
    expect(state.mapping?.email).toBe(1);
    state = csvImportReducer(state, { type: 'checked', result });
    state = csvImportReducer(state, { type: 'skip-duplicates', skip: false });
    expect(state).toMatchObject({ skipDuplicates: false, stage: { step: 'mapping' } });
  });

  it('a failed write goes back to the columns with its error, the rows kept for another try', () => {
    const prepared = { rows: [{ firstName: 'Ada' }], balanceErrors: [null] };
    let state = csvImportReducer(read(), { type: 'checking', prepared });
    state = csvImportReducer(state, { type: 'writing', progress: 0.5 });
    state = csvImportReducer(state, {
      type: 'failed',
      error: { kind: 'import-failed' },
      back: 'mapping',
    });
    expect(state).toMatchObject({
      stage: { step: 'mapping' },
      error: { kind: 'import-failed' },
      prepared,
    });
  });
});
