import { sql, type Kysely } from 'kysely';

// Frozen once landed. A statement line stays recorded only while a payment of it stands: lines
// whose payments were deleted with their client, or all voided by hand, were left recorded
// before, so a later statement answered "already recorded" for a payment that no longer counts.
// They are freed, as deleting a client and voiding a payment now do
// (docs/decisions/033-bank-lines-kept-apart-and-freed.md).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    delete from bank_lines
    where not exists (
      select 1 from entries e
      where e.owner_id = bank_lines.owner_id
        and e.bank_line_id = bank_lines.line_id
        and e.kind = 'payment'
        and not exists (select 1 from entries v where v.void_of = e.id)
    )
  `.execute(db);
}

export async function down(): Promise<void> {
  // The lines freed stay free: their payments are gone either way.
}
