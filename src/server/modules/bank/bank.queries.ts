import type { Kysely } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import {
  bankMappingSchema,
  learnedFroms,
  type BankLayouts,
  type BankLine,
  type BankRule,
  type PreviewLine,
  type SuggestedClient,
  type RuleLearned,
} from '../../../shared/schemas/bank.ts';
import type { Database, Executor } from '../../db/database.ts';
import { buildMatcher, payerRuleId, type MatchBook } from './bank-matching.ts';
import { bankLineId } from './bank-statement.ts';

/**
 * A statement's incoming lines with their identity, whether recorded before, and who paid; and
 * the clients suggested, named from the same reading of the match book.
 */
export async function previewLines(
  db: Kysely<Database>,
  bookId: string,
  accountLabel: string,
  currency: Currency,
  lines: readonly BankLine[],
): Promise<{ lines: PreviewLine[]; clients: SuggestedClient[] }> {
  const ids = lines.map((line) => bankLineId(accountLabel, currency, line));
  const [rows, recorded] = await Promise.all([
    matchBookRows(db, bookId, currency),
    recordedLineIds(db, bookId, ids),
  ]);
  const match = buildMatcher(matchBookOf(rows));
  const previewed = lines.map((line, index) => {
    const id = ids[index] as string;
    return { ...line, id, alreadyRecorded: recorded.has(id), suggestions: match(line) };
  });
  // The clients suggested, and those a caution names ("the payer is Rahman").
  const suggested = new Set(
    previewed.flatMap((line) =>
      line.suggestions.flatMap((suggestion) =>
        suggestion.caution?.otherClientId === undefined
          ? [suggestion.clientId]
          : [suggestion.clientId, suggestion.caution.otherClientId],
      ),
    ),
  );
  const clients = rows.clients.flatMap((row) =>
    suggested.has(row.id)
      ? [{ id: row.id, firstName: row.first_name, lastName: row.last_name, company: row.company }]
      : [],
  );
  return { lines: previewed, clients };
}

/** The payers the owner has confirmed, by their text. */
export async function listPayerRules(db: Kysely<Database>, bookId: string): Promise<BankRule[]> {
  const rows = await payerRules(db, bookId);
  return rows.map((row) => ({
    id: payerRuleId(row.payer_key),
    payerKey: row.payer_key,
    client:
      row.client_id === null
        ? null
        : { id: row.client_id, firstName: row.first_name ?? '', lastName: row.last_name ?? '' },
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
    learned: ruleLearned(row),
  }));
}

// The owner's bank imports as the JSON export writes them (docs/backup.md).
const iso = (time: number | string) => new Date(Number(time)).toISOString();

export async function* readBankBatches(db: Kysely<Database>, bookId: string) {
  const rows = pagesOf(
    (after) => bankBatchesAfter(db, bookId, after),
    (row) => row.id,
  );
  for await (const row of rows)
    yield {
      id: row.id,
      accountLabel: row.account_label,
      currency: row.currency,
      createdAt: iso(row.created_at),
      undoneAt: row.undone_at === null ? null : iso(row.undone_at),
    };
}

export async function* readBankLines(db: Kysely<Database>, bookId: string) {
  const rows = pagesOf(
    (after) => bankLinesAfter(db, bookId, after),
    (row) => row.line_id,
  );
  for await (const row of rows)
    yield { lineId: row.line_id, batchId: row.batch_id, createdAt: iso(row.created_at) };
}

export async function* readPayerRules(db: Kysely<Database>, bookId: string) {
  const rows = pagesOf(
    (after) => payerRulesAfter(db, bookId, after),
    (row) => row.payer_key,
  );
  for await (const row of rows) {
    const learnedFrom = learnedFroms.find((each) => each === row.learned_from) ?? null;
    yield {
      payerKey: row.payer_key,
      clientId: row.client_id,
      updatedAt: iso(row.updated_at),
      // Where it was learned, for a rule an import taught since issue 53.
      ...(row.batch_id !== null && { batchId: row.batch_id, line: row.line, learnedFrom }),
    };
  }
}

export async function* readBankLayouts(db: Kysely<Database>, bookId: string) {
  const rows = pagesOf(
    (after) => layoutsAfter(db, bookId, after),
    (row) => row.layout_key,
  );
  for await (const row of rows) {
    // As GET /api/bank/layouts: a mapping that no longer reads is left out, not refused later.
    const mapping = bankMappingSchema.safeParse(JSON.parse(row.mapping));
    if (mapping.success)
      yield { key: row.layout_key, mapping: mapping.data, updatedAt: iso(row.updated_at) };
  }
}

/** The CSV layouts remembered and the accounts imported before, newest first. */
export async function bankLayouts(db: Kysely<Database>, bookId: string): Promise<BankLayouts> {
  const [layouts, accounts] = await Promise.all([layoutRows(db, bookId), accountRows(db, bookId)]);
  return {
    layouts: layouts.flatMap((row) => {
      // Written from a checked body; one that no longer reads (a later schema) is left out.
      const mapping = bankMappingSchema.safeParse(JSON.parse(row.mapping));
      return mapping.success
        ? [
            {
              key: row.layout_key,
              mapping: mapping.data,
              updatedAt: new Date(Number(row.updated_at)).toISOString(),
            },
          ]
        : [];
    }),
    accounts: accounts.map(([label, currency]) => ({ label, currency })),
  };
}

// Few enough parameters per statement for either database.
const chunkSize = 200;

export const chunks = <T>(list: readonly T[]) =>
  Array.from({ length: Math.ceil(list.length / chunkSize) }, (_, index) =>
    list.slice(index * chunkSize, (index + 1) * chunkSize),
  );

async function recordedLineIds(
  db: Executor,
  bookId: string,
  lineIds: readonly string[],
): Promise<Set<string>> {
  const recorded = new Set<string>();
  for (const chunk of chunks(lineIds)) {
    const rows = await db
      .selectFrom('bank_lines')
      .select('line_id')
      .where('book_id', '=', bookId)
      .where('line_id', 'in', chunk)
      .execute();
    for (const row of rows) recorded.add(row.line_id);
  }
  return recorded;
}

export async function matchBookRows(db: Executor, bookId: string, currency: Currency) {
  const [clients, openItems, rules] = await Promise.all([
    db
      .selectFrom('clients')
      .select(['id', 'first_name', 'last_name', 'company', 'balance'])
      .where('book_id', '=', bookId)
      .where('currency', '=', currency)
      .execute(),
    db
      .selectFrom('entries')
      .select(['id', 'client_id', 'open_amount', 'reference', 'occurred_on', 'note'])
      .where('book_id', '=', bookId)
      .where('currency', '=', currency)
      .where('open_amount', '>', 0)
      // Oldest first: of two charges of one amount, the preview names the older.
      .orderBy('occurred_on')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('bank_payer_rules as r')
      .innerJoin('clients as c', 'c.id', 'r.client_id')
      .leftJoin('bank_batches as b', (join) =>
        join.onRef('b.id', '=', 'r.batch_id').onRef('b.book_id', '=', 'r.book_id'),
      )
      .select([
        'r.payer_key',
        'r.client_id',
        'r.updated_at',
        'r.line',
        'r.learned_from',
        'b.account_label',
      ])
      .where('r.book_id', '=', bookId)
      .where('c.currency', '=', currency)
      .execute(),
  ]);
  return { clients, openItems, rules };
}

/** Where a rule was learned: the import's account and line, and what found the client. */
function ruleLearned(row: {
  updated_at: number | string;
  account_label: string | null;
  line: number | null;
  learned_from: string | null;
}): RuleLearned {
  const from = learnedFroms.find((each) => each === row.learned_from) ?? null;
  return {
    at: new Date(Number(row.updated_at)).toISOString(),
    accountLabel: row.account_label,
    line: row.line,
    from,
  };
}

/** The match book of `bank-matching.ts` from the rows `matchBookRows` read. */
export function matchBookOf(rows: Awaited<ReturnType<typeof matchBookRows>>): MatchBook {
  return {
    clients: rows.clients.map((row) => ({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      company: row.company,
      balance: Number(row.balance),
    })),
    openItems: rows.openItems.map((row) => ({
      clientId: row.client_id,
      openAmount: Number(row.open_amount),
      reference: row.reference,
      id: row.id,
      date: row.occurred_on,
      note: row.note,
    })),
    rules: rows.rules.flatMap((row) =>
      row.client_id === null
        ? []
        : [{ payerKey: row.payer_key, clientId: row.client_id, learned: ruleLearned(row) }],
    ),
  };
}

/** The owner's learned payers, by their text, with the client each names. */
async function payerRules(db: Executor, bookId: string) {
  return db
    .selectFrom('bank_payer_rules as r')
    .leftJoin('clients as c', 'c.id', 'r.client_id')
    .leftJoin('bank_batches as b', (join) =>
      join.onRef('b.id', '=', 'r.batch_id').onRef('b.book_id', '=', 'r.book_id'),
    )
    .select([
      'r.payer_key',
      'r.client_id',
      'c.first_name',
      'c.last_name',
      'r.updated_at',
      'r.line',
      'r.learned_from',
      'b.account_label',
    ])
    .where('r.book_id', '=', bookId)
    .orderBy('r.payer_key')
    .execute();
}

// The owner's bank imports for the export, page by page along their keys.

const exportPage = 500;

async function bankBatchesAfter(db: Executor, bookId: string, after: string | null) {
  let query = db
    .selectFrom('bank_batches')
    .select(['id', 'account_label', 'currency', 'created_at', 'undone_at'])
    .where('book_id', '=', bookId);
  if (after !== null) query = query.where('id', '>', after);
  return query.orderBy('id').limit(exportPage).execute();
}

async function bankLinesAfter(db: Executor, bookId: string, after: string | null) {
  let query = db
    .selectFrom('bank_lines')
    .select(['line_id', 'batch_id', 'created_at'])
    .where('book_id', '=', bookId);
  if (after !== null) query = query.where('line_id', '>', after);
  return query.orderBy('line_id').limit(exportPage).execute();
}

async function payerRulesAfter(db: Executor, bookId: string, after: string | null) {
  let query = db
    .selectFrom('bank_payer_rules')
    .select(['payer_key', 'client_id', 'updated_at', 'batch_id', 'line', 'learned_from'])
    .where('book_id', '=', bookId);
  if (after !== null) query = query.where('payer_key', '>', after);
  return query.orderBy('payer_key').limit(exportPage).execute();
}

async function layoutsAfter(db: Executor, bookId: string, after: string | null) {
  let query = db
    .selectFrom('bank_layouts')
    .select(['layout_key', 'mapping', 'updated_at'])
    .where('book_id', '=', bookId);
  if (after !== null) query = query.where('layout_key', '>', after);
  return query.orderBy('layout_key').limit(exportPage).execute();
}

/** Every row of a table read a page at a time, each page starting after the last key read. */
async function* pagesOf<Row>(
  read: (after: string | null) => Promise<Row[]>,
  keyOf: (row: Row) => string,
): AsyncGenerator<Row> {
  let after: string | null = null;
  for (;;) {
    const rows = await read(after);
    yield* rows;
    const last = rows.at(-1);
    if (rows.length < exportPage || last === undefined) return;
    after = keyOf(last);
  }
}

// Enough for any owner's banks; an owner with more sees the ones used last.
const listedLayouts = 100;

async function layoutRows(db: Executor, bookId: string) {
  return db
    .selectFrom('bank_layouts')
    .select(['layout_key', 'mapping', 'updated_at'])
    .where('book_id', '=', bookId)
    .orderBy('updated_at', 'desc')
    .orderBy('layout_key')
    .limit(listedLayouts)
    .execute();
}

/** Each account label imported under, with the currency of its latest batch, latest first. */
async function accountRows(db: Executor, bookId: string) {
  const rows = await db
    .selectFrom('bank_batches')
    .select(['account_label', 'currency', 'created_at'])
    .where('book_id', '=', bookId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(1000)
    .execute();
  const seen = new Map<string, Currency>();
  for (const row of rows)
    if (!seen.has(row.account_label)) seen.set(row.account_label, row.currency);
  return [...seen].slice(0, listedLayouts);
}
