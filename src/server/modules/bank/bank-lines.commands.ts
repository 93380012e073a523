import type { Executor } from '../../db/database.ts';
import { clientLineIds, releaseUnpaidLines } from './bank.repository.ts';

// A statement line stays recorded while a payment of it stands. The commands that take payments
// away (deleting a client, voiding an entry) free the lines left with none, in their own
// transaction, so a later statement offers those lines again
// (docs/decisions/033-bank-lines-kept-apart-and-freed.md). Not commands of their own: each runs
// inside the command that removed the payments, which records its event.

/** The bank lines of a client's payments, read before the client and its ledger are deleted. */
export const clientBankLines = (trx: Executor, bookId: string, clientId: string) =>
  clientLineIds(trx, bookId, clientId);

/** Frees those of the lines that no standing payment holds any more. */
export const freeUnpaidLines = (trx: Executor, bookId: string, lineIds: readonly string[]) =>
  releaseUnpaidLines(trx, bookId, lineIds);
