import type { WritePath, WriteScope } from '../events/write-path.ts';
import { findClient, toSnapshot } from '../clients/clients.queries.ts';

/** A client deleted while the mail was on its way still gets the line: its history outlives it. */
export async function recordStatementSent(
  writes: WritePath<never>,
  scope: WriteScope,
  clientId: string,
  sentTo: string,
): Promise<void> {
  const bookId = typeof scope === 'string' ? scope : scope.id;
  await writes.change(scope, async ({ trx, record }) => {
    const client = await findClient(trx, bookId, clientId);
    const snapshot = client ? { ...toSnapshot(client), email: sentTo } : null;
    await record({
      clientId,
      action: 'statement_sent',
      version: client?.version ?? 0,
      before: snapshot,
      after: snapshot,
    });
  });
}
