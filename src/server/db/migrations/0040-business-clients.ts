import type { Kysely } from 'kysely';

// Frozen once landed. A client can be a business (issue 56): its company's name, billing
// address, tax id and the owner's private notes, each '' when not given, so every client made
// before keeps reading as a person. The list's sort and search key (`name_key`) starts with the
// company's name when there is one (docs/decisions/038-business-clients.md); no client has one
// yet, so no key changes here.

const columns = [
  'company',
  'address_line1',
  'address_line2',
  'city',
  'postcode',
  'country',
  'tax_id',
  'notes',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of columns)
    await db.schema
      .alterTable('clients')
      .addColumn(column, 'text', (col) => col.notNull().defaultTo(''))
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [...columns].reverse())
    await db.schema.alterTable('clients').dropColumn(column).execute();
}
