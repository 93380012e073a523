import type { Kysely } from 'kysely';

// Frozen once landed. Where a learned payer came from (issue 53): the import that taught it, the
// line, and what had found the client; and the rule as it was before that import changed it, so
// that undoing the import forgets what it taught and gives back what it overwrote. Null for the
// rules learned before.

const columns = ['batch_id', 'line', 'learned_from', 'previous'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('bank_payer_rules').addColumn('batch_id', 'text').execute();
  await db.schema.alterTable('bank_payer_rules').addColumn('line', 'integer').execute();
  await db.schema.alterTable('bank_payer_rules').addColumn('learned_from', 'text').execute();
  // The rule before the import changed it, as JSON; null when the import created it.
  await db.schema.alterTable('bank_payer_rules').addColumn('previous', 'text').execute();
  await db.schema
    .createIndex('bank_payer_rules_by_batch')
    .on('bank_payer_rules')
    .columns(['owner_id', 'batch_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('bank_payer_rules_by_batch').execute();
  for (const column of columns)
    await db.schema.alterTable('bank_payer_rules').dropColumn(column).execute();
}
