import type { Kysely } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import {
  bankMappingSchema,
  type BankLayouts,
  type BankLine,
  type PreviewLine,
} from '../../../shared/schemas/bank.ts';
import type { Database } from '../../db/database.ts';
import { buildMatcher } from './bank-matching.ts';
import { bankLineId } from './bank-statement.ts';
import { accountRows, layoutRows, matchBookRows, recordedLineIds } from './bank.repository.ts';

/** A statement's incoming lines with their identity, whether recorded before, and who paid. */
export async function previewLines(
  db: Kysely<Database>,
  ownerId: string,
  accountLabel: string,
  currency: Currency,
  lines: readonly BankLine[],
): Promise<PreviewLine[]> {
  const ids = lines.map((line) => bankLineId(accountLabel, currency, line));
  const [rows, recorded] = await Promise.all([
    matchBookRows(db, ownerId, currency),
    recordedLineIds(db, ownerId, ids),
  ]);
  const match = buildMatcher({
    clients: rows.clients.map((row) => ({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      balance: Number(row.balance),
    })),
    openItems: rows.openItems.map((row) => ({
      clientId: row.client_id,
      openAmount: Number(row.open_amount),
      reference: row.reference,
    })),
    rules: rows.rules.flatMap((row) =>
      row.client_id === null ? [] : [{ payerKey: row.payer_key, clientId: row.client_id }],
    ),
  });
  return lines.map((line, index) => {
    const id = ids[index] as string;
    return { ...line, id, alreadyRecorded: recorded.has(id), suggestions: match(line) };
  });
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
