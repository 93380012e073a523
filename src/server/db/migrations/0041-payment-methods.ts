import { sql, type Kysely } from 'kysely';

// Frozen once landed. How a payment came (issue 56): 'cash', 'bank_transfer', 'card', 'cheque'
// or 'other'; null on every other entry. A payment recorded before has no method the owner said,
// so it stays null ("not recorded"), except one brought in from a bank statement, which was a
// transfer into the owner's account.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('payment_method', 'text').execute();
  await sql`update entries set payment_method = 'bank_transfer' where kind = 'payment' and bank_line_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entries').dropColumn('payment_method').execute();
}
