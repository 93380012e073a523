import type { ImportResult } from '../../../shared/schemas/clients.ts';
import type { ImportRow } from './api/import-clients.ts';
import type { ImportField, QuoteProblem } from './csv-mapping.ts';

export interface ParsedFile {
  name: string;
  header: string[];
  lines: string[][];
}

type Stage =
  | { step: 'choose' }
  | { step: 'reading'; progress: number }
  | { step: 'mapping' }
  | { step: 'checking' }
  | { step: 'preview'; result: ImportResult }
  | { step: 'writing'; progress: number | null };

/** What stops the import, kept as what happened so it shows in the language chosen later too. */
export type ImportError =
  | { kind: 'quote'; problem: QuoteProblem }
  | { kind: 'no-rows' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'check-failed' }
  | { kind: 'import-failed' }
  | { kind: 'server'; message: string };

export type Mapping = Record<ImportField, number | null>;

/** The rows as sent for the check (and then the import), and the balances that did not read. */
export interface Prepared {
  rows: ImportRow[];
  balanceErrors: (string | null)[];
}

export interface CsvImportState {
  stage: Stage;
  file: ParsedFile | null;
  mapping: Mapping | null;
  skipDuplicates: boolean;
  error: ImportError | null;
  prepared: Prepared | null;
}

export const initialCsvImport: CsvImportState = {
  stage: { step: 'choose' },
  file: null,
  mapping: null,
  skipDuplicates: true,
  error: null,
  prepared: null,
};

export type CsvImportAction =
  | { type: 'read-started' }
  | { type: 'reading'; progress: number }
  | { type: 'read'; file: ParsedFile; mapping: Mapping }
  | { type: 'column'; field: ImportField; column: number | null }
  | { type: 'skip-duplicates'; skip: boolean }
  | { type: 'checking'; prepared: Prepared }
  | { type: 'checked'; result: ImportResult }
  | { type: 'writing'; progress: number | null }
  /** Reading, checking or writing stopped; `back` is where the owner picks up again. */
  | { type: 'failed'; error: ImportError; back: 'choose' | 'mapping' };

export function csvImportReducer(state: CsvImportState, action: CsvImportAction): CsvImportState {
  switch (action.type) {
    case 'read-started':
      return { ...state, error: null, stage: { step: 'reading', progress: 0 } };
    case 'reading':
      return { ...state, stage: { step: 'reading', progress: action.progress } };
    case 'read':
      return { ...state, file: action.file, mapping: action.mapping, stage: { step: 'mapping' } };
    case 'column':
      if (!state.mapping) return state;
      return {
        ...state,
        mapping: { ...state.mapping, [action.field]: action.column },
        stage: { step: 'mapping' },
      };
    case 'skip-duplicates':
      return { ...state, skipDuplicates: action.skip, stage: { step: 'mapping' } };
    case 'checking':
      return { ...state, error: null, prepared: action.prepared, stage: { step: 'checking' } };
    case 'checked':
      return { ...state, stage: { step: 'preview', result: action.result } };
    case 'writing':
      return { ...state, stage: { step: 'writing', progress: action.progress } };
    case 'failed':
      return { ...state, error: action.error, stage: { step: action.back } };
  }
}
