import type { Currency } from '../../../shared/money.ts';

interface BankBatchesTable {
  id: string;
  book_id: string;
  account_label: string;
  currency: Currency;
  created_at: number;
  undone_at: number | null;
}

/** One row per statement line recorded: its key is the one arbiter of "recorded once". */
interface BankLinesTable {
  book_id: string;
  line_id: string;
  batch_id: string;
  created_at: number;
}

interface BankPayerRulesTable {
  book_id: string;
  /** `payerKey` of a description the owner confirmed. */
  payer_key: string;
  /** Null once the text was confirmed for two different clients: a bank's generic wording. */
  client_id: string | null;
  updated_at: number;
  /** The import that taught or last changed it (migration 0036); null for older rules. */
  batch_id: string | null;
  /** That import's line. */
  line: number | null;
  /** What had found the client of the line confirmed: a `LearnedFrom`. */
  learned_from: string | null;
  /** The rule before that import changed it, as JSON (`PreviousRule`); null if it created it. */
  previous: string | null;
}

/** A CSV layout's column mapping, under the key of its header row (migration 0033). */
interface BankLayoutsTable {
  book_id: string;
  layout_key: string;
  /** The mapping as JSON text. */
  mapping: string;
  updated_at: number;
}

export interface BankTables {
  bank_batches: BankBatchesTable;
  bank_lines: BankLinesTable;
  bank_payer_rules: BankPayerRulesTable;
  bank_layouts: BankLayoutsTable;
}
