import type { Currency } from '../../../shared/money.ts';
import type { BankLayout, PreviewLine } from '../../../shared/schemas/bank.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { Outcome } from './components/import-result.tsx';
import { initialChoice, type ConfidenceFilter, type LineChoice } from './review.ts';

export type ClientName = Pick<Client, 'id' | 'firstName' | 'lastName'>;

/** What was sent for the preview: the confirm sends the same account, and the layout. */
export interface Previewed {
  accountLabel: string;
  currency: Currency;
  lines: PreviewLine[];
  skipped: number;
  /** Lines identical to another of the file, kept as separate payments. */
  twins: number;
  layout: BankLayout | undefined;
}

/** The import's result as kept for Back from a client's page, and whether it was undone. */
export interface SavedResult {
  outcome: Outcome;
  undone: number | null;
}

/** The bank import past its first form: the lines read, the owner's choices, the result. */
export interface BankImportState {
  previewed: Previewed | null;
  choices: Map<string, LineChoice>;
  filter: ConfidenceFilter;
  /** Recording was asked for: the lines chosen show their problems from then on. */
  tried: boolean;
  confirmProblem: string | null;
  /** The clients the preview suggested, and those found by a search since. */
  clients: Map<string, ClientName>;
  outcome: Outcome | null;
  undone: number | null;
  undoProblem: string | null;
}

export type BankImportAction =
  | { type: 'previewed'; previewed: Previewed; clients: ClientName[] }
  | { type: 'back-to-upload' }
  | { type: 'choose'; lineId: string; choice: LineChoice }
  | { type: 'client-named'; client: ClientName }
  | { type: 'filter'; filter: ConfidenceFilter }
  | { type: 'select-high' }
  | { type: 'record-asked' }
  | { type: 'record-refused'; problem: string; showAll: boolean }
  | { type: 'recorded'; outcome: Outcome }
  | { type: 'undo-asked' }
  | { type: 'undone'; voided: number }
  | { type: 'undo-refused'; problem: string }
  | { type: 'start-again' };

export function initialBankImport(saved: SavedResult | null): BankImportState {
  return {
    previewed: null,
    choices: new Map(),
    filter: 'all',
    tried: false,
    confirmProblem: null,
    clients: new Map(),
    outcome: saved?.outcome ?? null,
    undone: saved?.undone ?? null,
    undoProblem: null,
  };
}

/** Ticks each line not yet recorded whose best suggestion is sure, for that client alone. */
function selectHigh(lines: PreviewLine[], current: Map<string, LineChoice>) {
  const next = new Map(current);
  for (const line of lines) {
    const choice = next.get(line.id);
    const best = line.suggestions[0];
    if (choice && !line.alreadyRecorded && best?.confidence === 'high')
      next.set(line.id, {
        selected: true,
        split: false,
        parts: [{ clientId: best.clientId, amountText: '' }],
      });
  }
  return next;
}

export function bankImportReducer(
  state: BankImportState,
  action: BankImportAction,
): BankImportState {
  switch (action.type) {
    case 'previewed':
      return {
        ...state,
        previewed: action.previewed,
        clients: new Map(action.clients.map((client) => [client.id, client])),
        choices: new Map(action.previewed.lines.map((line) => [line.id, initialChoice(line)])),
        filter: 'all',
        tried: false,
        confirmProblem: null,
      };
    case 'back-to-upload':
      return { ...state, previewed: null };
    case 'choose':
      return { ...state, choices: new Map(state.choices).set(action.lineId, action.choice) };
    case 'client-named':
      return { ...state, clients: new Map(state.clients).set(action.client.id, action.client) };
    case 'filter':
      return { ...state, filter: action.filter };
    case 'select-high':
      return { ...state, choices: selectHigh(state.previewed?.lines ?? [], state.choices) };
    case 'record-asked':
      return { ...state, tried: true, confirmProblem: null };
    case 'record-refused':
      return {
        ...state,
        confirmProblem: action.problem,
        filter: action.showAll ? 'all' : state.filter,
      };
    case 'recorded':
      return { ...state, outcome: action.outcome, undone: null, undoProblem: null };
    case 'undo-asked':
      return { ...state, undoProblem: null };
    case 'undone':
      return { ...state, undone: action.voided };
    case 'undo-refused':
      return { ...state, undoProblem: action.problem };
    case 'start-again':
      return { ...state, outcome: null, previewed: null, choices: new Map() };
  }
}
