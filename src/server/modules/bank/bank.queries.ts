import type { Kysely } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { BankLine, BankRule, PreviewLine } from '../../../shared/schemas/bank.ts';
import type { Database } from '../../db/database.ts';
import { buildMatcher, payerRuleId } from './bank-matching.ts';
import { bankLineId } from './bank-statement.ts';
import { matchBookRows, payerRules, recordedLineIds } from './bank.repository.ts';

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
  }));
}
