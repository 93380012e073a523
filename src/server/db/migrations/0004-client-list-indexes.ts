import type { Kysely } from 'kysely';

// Frozen once landed. Each sort reads one in order, so a first page costs the same at any size.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('clients_owner_email')
    .on('clients')
    .columns(['owner_id', 'email', 'id'])
    .execute();
  await db.schema
    .createIndex('clients_owner_balance')
    .on('clients')
    .columns(['owner_id', 'currency', 'balance', 'id'])
    .execute();
  await db.schema
    .createIndex('clients_owner_created')
    .on('clients')
    .columns(['owner_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clients_owner_created').execute();
  await db.schema.dropIndex('clients_owner_balance').execute();
  await db.schema.dropIndex('clients_owner_email').execute();
}
