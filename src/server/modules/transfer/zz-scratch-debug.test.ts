import { it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createMigratedTestDatabase } from '../../../../tests/db.ts';
import { testPasswordHashing } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';

it('debug', async () => {
  const database = await createMigratedTestDatabase();
  const app = await buildApp({ config: { ...loadConfig({}), database: database.config, signUpsPerAddressPerHour: 0, passwordHashing: testPasswordHashing }, clientDir: null, logger: { level: 'error' } });
  const o = await joinAs(app);
  const rows = Array.from({ length: 600 }, (_, i) => buildClient({ email: `x${i}@example.com` }));
  const r = await app.inject({ method: 'POST', url: '/api/clients/import', headers: { cookie: o.cookie }, payload: { rows, dryRun: false, skipDuplicates: true } });
  process.stdout.write(r.statusCode + ' ' + r.body.slice(0, 300) + '\n');
  await app.close();
  await database.drop();
});
