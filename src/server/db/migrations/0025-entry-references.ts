import type { Kysely } from 'kysely';

// Frozen once landed. An entry's reference (an invoice number, a cheque number): empty on every
// entry recorded before it. Opening balances keep their due date null, which means due on the
// day they are dated, as it always did (ageing.ts `dueDay`), so no figure moves.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('entries')
    .addColumn('reference', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entries').dropColumn('reference').execute();
}
