import type { Currency } from '../../../shared/money.ts';
import type { Executor } from '../../db/database.ts';
import { chunks } from './bank.queries.ts';

export async function insertBatch(
  trx: Executor,
  batch: { id: string; bookId: string; accountLabel: string; currency: Currency; now: number },
): Promise<void> {
  await trx
    .insertInto('bank_batches')
    .values({
      id: batch.id,
      book_id: batch.bookId,
      account_label: batch.accountLabel,
      currency: batch.currency,
      created_at: batch.now,
      undone_at: null,
    })
    .execute();
}

/**
 * Takes the lines for the batch; answers those taken. A line recorded before, or by another
 * batch committing at the same moment (PostgreSQL waits for it on the key), is not taken.
 */
export async function claimLines(
  trx: Executor,
  bookId: string,
  batchId: string,
  lineIds: readonly string[],
  now: number,
): Promise<Set<string>> {
  const taken = new Set<string>();
  // In one order, so that two batches of overlapping lines wait for each other, never deadlock.
  for (const chunk of chunks([...new Set(lineIds)].sort())) {
    const rows = await trx
      .insertInto('bank_lines')
      .values(
        chunk.map((lineId) => ({
          book_id: bookId,
          line_id: lineId,
          batch_id: batchId,
          created_at: now,
        })),
      )
      .onConflict((conflict) => conflict.columns(['book_id', 'line_id']).doNothing())
      .returning('line_id')
      .execute();
    for (const row of rows) taken.add(row.line_id);
  }
  return taken;
}

export async function setEntryBankLine(
  trx: Executor,
  bookId: string,
  entryId: number,
  lineId: string,
): Promise<void> {
  await trx
    .updateTable('entries')
    .set({ bank_line_id: lineId })
    .where('id', '=', entryId)
    .where('book_id', '=', bookId)
    .execute();
}

/** A rule as it was before an import changed it (`bank_payer_rules.previous`). */
interface PreviousRule {
  clientId: string | null;
  updatedAt: number;
  batchId: string | null;
  line: number | null;
  learnedFrom: string | null;
}

/**
 * Remembers who paid under a description, and where it was learned; a description already
 * confirmed for another client ("TRANSFER", "CASH DEPOSIT") names nobody from then on. The rule
 * as it was before this import is kept beside it, for the import's undo.
 */
export async function saveRule(
  trx: Executor,
  rule: {
    bookId: string;
    payerKey: string;
    clientId: string;
    now: number;
    batchId: string;
    line: number;
    learnedFrom: string;
  },
): Promise<void> {
  const learned = { batch_id: rule.batchId, line: rule.line, learned_from: rule.learnedFrom };
  const inserted = await trx
    .insertInto('bank_payer_rules')
    .values({
      book_id: rule.bookId,
      payer_key: rule.payerKey,
      client_id: rule.clientId,
      updated_at: rule.now,
      ...learned,
      previous: null,
    })
    // PostgreSQL waits here for another import learning the same text, then reads its rule.
    .onConflict((conflict) => conflict.columns(['book_id', 'payer_key']).doNothing())
    .returning('payer_key')
    .executeTakeFirst();
  if (inserted) return;
  const existing = await trx
    .selectFrom('bank_payer_rules')
    .select(['client_id', 'updated_at', 'batch_id', 'line', 'learned_from', 'previous'])
    .where('book_id', '=', rule.bookId)
    .where('payer_key', '=', rule.payerKey)
    .executeTakeFirstOrThrow();
  const clientId = existing.client_id === rule.clientId ? rule.clientId : null;
  const previous: PreviousRule = {
    clientId: existing.client_id,
    updatedAt: Number(existing.updated_at),
    batchId: existing.batch_id,
    line: existing.line,
    learnedFrom: existing.learned_from,
  };
  await trx
    .updateTable('bank_payer_rules')
    // A second line of the same import keeps the rule as it was before the import.
    .set(
      existing.batch_id === rule.batchId
        ? { client_id: clientId }
        : {
            client_id: clientId,
            updated_at: rule.now,
            ...learned,
            previous: JSON.stringify(previous),
          },
    )
    .where('book_id', '=', rule.bookId)
    .where('payer_key', '=', rule.payerKey)
    .execute();
}

/**
 * Undoing an import forgets what it taught: a rule it created is deleted, one it changed is
 * given back as it was (unless the client it named is gone: then deleted). A rule changed again
 * by a later import stays as that import left it, but no longer gives this one's state back.
 */
export async function forgetBatchRules(trx: Executor, bookId: string, batchId: string) {
  const taught = await trx
    .selectFrom('bank_payer_rules')
    .select(['payer_key', 'previous'])
    .where('book_id', '=', bookId)
    .where('batch_id', '=', batchId)
    .execute();
  for (const rule of taught) {
    const previous = rule.previous === null ? null : (JSON.parse(rule.previous) as PreviousRule);
    const clientGone =
      previous !== null &&
      previous.clientId !== null &&
      (await trx
        .selectFrom('clients')
        .select('id')
        .where('id', '=', previous.clientId)
        .where('book_id', '=', bookId)
        .executeTakeFirst()) === undefined;
    const where = trx
      .updateTable('bank_payer_rules')
      .where('book_id', '=', bookId)
      .where('payer_key', '=', rule.payer_key);
    if (previous === null || clientGone)
      await trx
        .deleteFrom('bank_payer_rules')
        .where('book_id', '=', bookId)
        .where('payer_key', '=', rule.payer_key)
        .execute();
    else
      await where
        .set({
          client_id: previous.clientId,
          updated_at: previous.updatedAt,
          batch_id: previous.batchId,
          line: previous.line,
          learned_from: previous.learnedFrom,
          previous: null,
        })
        .execute();
  }
  const later = await trx
    .selectFrom('bank_payer_rules')
    .select(['payer_key', 'previous'])
    .where('book_id', '=', bookId)
    .where('previous', 'like', `%${batchId}%`)
    .execute();
  for (const rule of later)
    if (rule.previous !== null && (JSON.parse(rule.previous) as PreviousRule).batchId === batchId)
      await trx
        .updateTable('bank_payer_rules')
        .set({ previous: null })
        .where('book_id', '=', bookId)
        .where('payer_key', '=', rule.payer_key)
        .execute();
}

/** Marks the batch undone; false when it is not there or was undone already. */
export async function markBatchUndone(
  trx: Executor,
  bookId: string,
  batchId: string,
  now: number,
): Promise<boolean> {
  const result = await trx
    .updateTable('bank_batches')
    .set({ undone_at: now })
    .where('id', '=', batchId)
    .where('book_id', '=', bookId)
    .where('undone_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function batchExists(db: Executor, bookId: string, batchId: string) {
  const row = await db
    .selectFrom('bank_batches')
    .select('id')
    .where('id', '=', batchId)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The batch's payments not voided yet. */
export async function batchPayments(trx: Executor, bookId: string, batchId: string) {
  return trx
    .selectFrom('bank_lines as l')
    .innerJoin('entries as e', (join) =>
      join.onRef('e.book_id', '=', 'l.book_id').onRef('e.bank_line_id', '=', 'l.line_id'),
    )
    .leftJoin('entries as v', 'v.void_of', 'e.id')
    .select(['e.id', 'e.client_id'])
    .where('l.batch_id', '=', batchId)
    .where('l.book_id', '=', bookId)
    .where('e.kind', '=', 'payment')
    .where('v.id', 'is', null)
    .orderBy('e.id')
    .execute();
}

/** The batch's lines may be recorded again. */
export async function releaseLines(trx: Executor, bookId: string, batchId: string) {
  await trx
    .deleteFrom('bank_lines')
    .where('book_id', '=', bookId)
    .where('batch_id', '=', batchId)
    .execute();
}

/** The lines a client's payments (standing or voided) came from. */
export async function clientLineIds(
  db: Executor,
  bookId: string,
  clientId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('entries')
    .select('bank_line_id')
    .distinct()
    .where('book_id', '=', bookId)
    .where('client_id', '=', clientId)
    .where('bank_line_id', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.bank_line_id === null ? [] : [row.bank_line_id]));
}

/** Of these lines, those no standing payment holds any more may be recorded again. */
export async function releaseUnpaidLines(
  trx: Executor,
  bookId: string,
  lineIds: readonly string[],
): Promise<void> {
  for (const chunk of chunks(lineIds))
    await trx
      .deleteFrom('bank_lines')
      .where('book_id', '=', bookId)
      .where('line_id', 'in', chunk)
      .where((outer) =>
        outer.not(
          outer.exists(
            outer
              .selectFrom('entries as e')
              .select('e.id')
              .whereRef('e.book_id', '=', 'bank_lines.book_id')
              .whereRef('e.bank_line_id', '=', 'bank_lines.line_id')
              .where('e.kind', '=', 'payment')
              .where((inner) =>
                inner.not(
                  inner.exists(
                    inner
                      .selectFrom('entries as v')
                      .select('v.id')
                      .whereRef('v.void_of', '=', 'e.id'),
                  ),
                ),
              ),
          ),
        ),
      )
      .execute();
}

/** The texts of the owner's learned payers. */
export async function payerKeys(db: Executor, bookId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('bank_payer_rules')
    .select('payer_key')
    .where('book_id', '=', bookId)
    .execute();
  return rows.map((row) => row.payer_key);
}

/** Forgets one learned payer; answers the client it named (null for none), undefined if absent. */
export async function deleteRule(
  trx: Executor,
  bookId: string,
  payerKey: string,
): Promise<{ client_id: string | null } | undefined> {
  return trx
    .deleteFrom('bank_payer_rules')
    .where('book_id', '=', bookId)
    .where('payer_key', '=', payerKey)
    .returning('client_id')
    .executeTakeFirst();
}

/** A restore's bank imports, lines, learned payers and CSV layouts, under the new owner. */
export async function insertRestoredBank(
  trx: Executor,
  bookId: string,
  bank: {
    batches: readonly {
      id: string;
      accountLabel: string;
      currency: Currency;
      createdAt: number;
      undoneAt: number | null;
    }[];
    lines: readonly { lineId: string; batchId: string; createdAt: number }[];
    rules: readonly {
      payerKey: string;
      clientId: string | null;
      updatedAt: number;
      batchId: string | null;
      line: number | null;
      learnedFrom: string | null;
    }[];
    /** Each mapping as the JSON text the table keeps. */
    layouts: readonly { key: string; mapping: string; updatedAt: number }[];
  },
): Promise<void> {
  for (const chunk of chunks(bank.batches))
    await trx
      .insertInto('bank_batches')
      .values(
        chunk.map((batch) => ({
          id: batch.id,
          book_id: bookId,
          account_label: batch.accountLabel,
          currency: batch.currency,
          created_at: batch.createdAt,
          undone_at: batch.undoneAt,
        })),
      )
      .execute();
  for (const chunk of chunks(bank.lines))
    await trx
      .insertInto('bank_lines')
      .values(
        chunk.map((line) => ({
          book_id: bookId,
          line_id: line.lineId,
          batch_id: line.batchId,
          created_at: line.createdAt,
        })),
      )
      .execute();
  for (const chunk of chunks(bank.rules))
    await trx
      .insertInto('bank_payer_rules')
      .values(
        chunk.map((rule) => ({
          book_id: bookId,
          payer_key: rule.payerKey,
          client_id: rule.clientId,
          updated_at: rule.updatedAt,
          batch_id: rule.batchId,
          line: rule.line,
          learned_from: rule.learnedFrom,
          previous: null,
        })),
      )
      .execute();
  for (const chunk of chunks(bank.layouts))
    await trx
      .insertInto('bank_layouts')
      .values(
        chunk.map((layout) => ({
          book_id: bookId,
          layout_key: layout.key,
          mapping: layout.mapping,
          updated_at: layout.updatedAt,
        })),
      )
      .execute();
}

/** Remembers the mapping of a CSV layout, replacing the one remembered before. */
export async function saveLayout(
  trx: Executor,
  layout: { bookId: string; key: string; mapping: string; now: number },
): Promise<void> {
  await trx
    .insertInto('bank_layouts')
    .values({
      book_id: layout.bookId,
      layout_key: layout.key,
      mapping: layout.mapping,
      updated_at: layout.now,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['book_id', 'layout_key'])
        .doUpdateSet({ mapping: layout.mapping, updated_at: layout.now }),
    )
    .execute();
}
