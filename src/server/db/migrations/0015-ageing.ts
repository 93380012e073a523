import { sql, type Kysely } from 'kysely';

// Frozen once landed. Kept, so the ageing is read from an index, not worked out on every request.

interface Line {
  id: number;
  client_id: string;
  amount: number;
  occurred_on: string;
  due_on: string | null;
  void_of: number | null;
}

/** Frozen with this migration. */
function allocate(lines: Line[]) {
  const voided = new Set(lines.flatMap((line) => (line.void_of === null ? [] : [line.void_of])));
  const live = lines.filter((line) => line.void_of === null && !voided.has(line.id));
  let credit = live.reduce((sum, line) => (line.amount < 0 ? sum - line.amount : sum), 0);
  const open = new Map<number, number>();
  let oldestDue: string | null = null;
  const debits = live
    .filter((line) => line.amount > 0)
    .sort((a, b) =>
      a.occurred_on === b.occurred_on ? a.id - b.id : a.occurred_on < b.occurred_on ? -1 : 1,
    );
  for (const debit of debits) {
    const settled = Math.min(credit, debit.amount);
    credit -= settled;
    if (debit.amount - settled === 0) continue;
    open.set(debit.id, debit.amount - settled);
    const due = debit.due_on ?? debit.occurred_on;
    if (oldestDue === null || due < oldestDue) oldestDue = due;
  }
  return { open, oldestDue };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('entries')
    .addColumn('open_amount', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('clients').addColumn('oldest_due_on', 'text').execute();
  await db.schema
    .createIndex('entries_open')
    .on('entries')
    .columns(['owner_id', 'currency'])
    .where(sql.ref('open_amount'), '>', 0)
    .execute();
  await db.schema
    .createIndex('clients_owner_oldest_due')
    .on('clients')
    .columns(['owner_id', 'oldest_due_on', 'id'])
    .execute();

  const { rows } = await sql<Line>`
    select e.id, e.client_id, e.amount, e.occurred_on, e.due_on, e.void_of
    from entries e join clients c on c.id = e.client_id and c.currency = e.currency
    order by e.client_id, e.id
  `.execute(db);
  const byClient = new Map<string, Line[]>();
  for (const row of rows) {
    const line = { ...row, id: Number(row.id), amount: Number(row.amount) };
    const list = byClient.get(line.client_id) ?? [];
    list.push(line);
    byClient.set(line.client_id, list);
  }
  for (const [clientId, lines] of byClient) {
    const { open, oldestDue } = allocate(lines);
    for (const [id, amount] of open)
      await sql`update entries set open_amount = ${amount} where id = ${id}`.execute(db);
    await sql`update clients set oldest_due_on = ${oldestDue} where id = ${clientId}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clients_owner_oldest_due').execute();
  await db.schema.dropIndex('entries_open').execute();
  await db.schema.alterTable('clients').dropColumn('oldest_due_on').execute();
  await db.schema.alterTable('entries').dropColumn('open_amount').execute();
}
