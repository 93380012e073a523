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
} from '../../../shared/schemas/bank.ts';
import type { Database } from '../../db/database.ts';
import { buildMatcher, payerRuleId } from './bank-matching.ts';
import { bankLineId } from './bank-statement.ts';
import {
  accountRows,
  bankBatchesAfter,
  bankLinesAfter,
  layoutRows,
  layoutsAfter,
  matchBookOf,
  matchBookRows,
  pagesOf,
  payerRules,
  payerRulesAfter,
  recordedLineIds,
  ruleLearned,
} from './bank.repository.ts';

/**
 * A statement's incoming lines with their identity, whether recorded before, and who paid; and
 * the clients suggested, named from the same reading of the match book.
 */
export async function previewLines(
  db: Kysely<Database>,
  ownerId: string,
  accountLabel: string,
  currency: Currency,
  lines: readonly BankLine[],
): Promise<{ lines: PreviewLine[]; clients: SuggestedClient[] }> {
  const ids = lines.map((line) => bankLineId(accountLabel, currency, line));
  const [rows, recorded] = await Promise.all([
    matchBookRows(db, ownerId, currency),
    recordedLineIds(db, ownerId, ids),
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
      ? [{ id: row.id, firstName: row.first_name, lastName: row.last_name }]
      : [],
  );
  return { lines: previewed, clients };
}

/** The payers the owner has confirmed, by their text. */
export async function listPayerRules(db: Kysely<Database>, ownerId: string): Promise<BankRule[]> {
  const rows = await payerRules(db, ownerId);
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

export async function* readBankBatches(db: Kysely<Database>, ownerId: string) {
  const rows = pagesOf(
    (after) => bankBatchesAfter(db, ownerId, after),
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

export async function* readBankLines(db: Kysely<Database>, ownerId: string) {
  const rows = pagesOf(
    (after) => bankLinesAfter(db, ownerId, after),
    (row) => row.line_id,
  );
  for await (const row of rows)
    yield { lineId: row.line_id, batchId: row.batch_id, createdAt: iso(row.created_at) };
}

export async function* readPayerRules(db: Kysely<Database>, ownerId: string) {
  const rows = pagesOf(
    (after) => payerRulesAfter(db, ownerId, after),
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

export async function* readBankLayouts(db: Kysely<Database>, ownerId: string) {
  const rows = pagesOf(
    (after) => layoutsAfter(db, ownerId, after),
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
export async function bankLayouts(db: Kysely<Database>, ownerId: string): Promise<BankLayouts> {
  const [layouts, accounts] = await Promise.all([
    layoutRows(db, ownerId),
    accountRows(db, ownerId),
  ]);
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
