import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { testDialect } from '../../../../tests/db.ts';
import { buildClient } from '../../../../tests/factories.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';
import { trigramQuery } from './clients.queries.ts';

// The search is narrowed by a trigram index (migration 0019-search-and-ageing-indexes) so that a
// search over a very long list reads only the rows that can match. These tests check that it finds the same
// clients as before as they are added, edited, imported and deleted, and that the index is read.

let testApp: TestApp;
let cookie: string;

beforeAll(async () => {
  testApp = await buildTestApp();
  ({ cookie } = await joinAs(testApp.app));
});
afterAll(async () => {
  await testApp.close();
});

async function request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const response = await testApp.app.inject({ method, url, headers: { cookie }, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
}
const search = async (text: string) =>
  (await request('GET', `/api/clients?q=${encodeURIComponent(text)}`))
    .json<ClientList>()
    .clients.map((client) => `${client.firstName} ${client.lastName}`);

describe('the search index', () => {
  it('finds clients as they are added, edited, imported and deleted', async () => {
    const added = (
      await request(
        'POST',
        '/api/clients',
        buildClient({ firstName: 'Wanjiru', lastName: 'Kamau', email: 'wk@nairobi.example' }),
      )
    ).json<Client>();
    expect(await search('anjir')).toEqual(['Wanjiru Kamau']);
    expect(await search('NAIROBI')).toEqual(['Wanjiru Kamau']);

    await request('PUT', `/api/clients/${added.id}`, {
      ...buildClient({ firstName: 'Wanjiku', lastName: 'Kamau', email: 'wk@mombasa.example' }),
      version: added.version,
    });
    expect(await search('anjir')).toEqual([]);
    expect(await search('nairobi')).toEqual([]);
    expect(await search('anjik')).toEqual(['Wanjiku Kamau']);
    expect(await search('mombasa')).toEqual(['Wanjiku Kamau']);

    await request('POST', '/api/clients/import', {
      dryRun: false,
      skipDuplicates: false,
      rows: [
        buildClient({ firstName: 'Olumide', lastName: 'Adeyemi', email: 'olu@lagos.example' }),
      ],
    });
    expect(await search('lumid')).toEqual(['Olumide Adeyemi']);

    await request('DELETE', `/api/clients/${added.id}`);
    expect(await search('anjik')).toEqual([]);
    // Shorter than three characters: no trigram covers it, and the search still finds.
    expect(await search('ol')).toEqual(['Olumide Adeyemi']);
  });

  it('quotes every piece of the search for FTS5, so no character is read as its syntax', () => {
    expect(trigramQuery('ab')).toBeNull();
    expect(trigramQuery('a"b*c')).toBe('"a""b" AND """b*" AND "b*c"');
    expect(trigramQuery('aaaa')).toBe('"aaa"');
    // Characters, not UTF-16 units: one emoji is one character.
    expect(trigramQuery('x😀y')).toBe('"x😀y"');
  });

  it.runIf(testDialect === 'sqlite')(
    'reads the trigram table on SQLite (SQLite only)',
    async () => {
      const client = (
        await request(
          'POST',
          '/api/clients',
          buildClient({ firstName: 'Ngozi', lastName: 'Eze', email: 'ngozi@enugu.example' }),
        )
      ).json<Client>();
      expect(await search('enugu')).toEqual(['Ngozi Eze']);
      // Take the client out of the index alone: a search that reads the index no longer finds it,
      // while one too short for the index still scans the rows and does.
      await sql`insert into clients_search (clients_search, rowid, name_key, email, phone)
      select 'delete', rowid, name_key, email, phone from clients where id = ${client.id}`.execute(
        testApp.app.db.kysely,
      );
      await request('POST', '/api/clients', buildClient({ firstName: 'Zed' })); // a new list answer
      expect(await search('enugu')).toEqual([]);
      expect(await search('ng')).toContain('Ngozi Eze');
    },
  );

  it.runIf(testDialect === 'postgres')(
    'has pg_trgm indexes the planner uses for a search on PostgreSQL (PostgreSQL only)',
    async () => {
      const plan = await testApp.app.db.kysely.transaction().execute(async (trx) => {
        // On a few rows a scan is cheaper; forbid it to see whether an index can answer.
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select id from clients
          where name_key like '%anji%' or lower(email) like '%anji%' or phone like '%anji%'`.execute(
          trx,
        );
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('clients_search_name');
      expect(plan).toContain('clients_search_email');
      expect(plan).toContain('clients_search_phone');
    },
  );
});
