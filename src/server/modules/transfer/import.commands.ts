// Bytes in, so on SQLite all an import costs runs in the writer's thread; only what needs the
// owner's clients runs in the transaction (decision 023).
import { importBodySchema, type ImportResult } from '../../../shared/schemas/clients.ts';
import { invalidBody } from '../../errors.ts';
import { addImportedClients } from '../clients/clients.commands.ts';
import { ownerEmailKeys } from '../clients/clients.queries.ts';
import { readingCommand, unchanged, type Unchanged } from '../events/write-path.ts';
import { readPreferences } from '../settings/settings.queries.ts';
import { parseJsonBody } from './chunked-json-body.ts';
import { checkRowsAsForm, flagDuplicates, importResultsJson } from './import-rows.ts';

export interface ImportAnswer extends Omit<ImportResult, 'results'> {
  resultsJson: string;
}

async function readImportBody(bytes: Uint8Array) {
  const parsed = importBodySchema.safeParse(await parseJsonBody(bytes));
  if (parsed.success) return { ...parsed.data, rows: await checkRowsAsForm(parsed.data.rows) };
  throw invalidBody(parsed.error.issues);
}

export const importFile = readingCommand(
  readImportBody,
  async (
    context,
    ownerId,
    { rows, dryRun, skipDuplicates },
  ): Promise<ImportAnswer | Unchanged<ImportAnswer>> => {
    const existing = await ownerEmailKeys(context.trx, ownerId);
    const { results, accepted } = flagDuplicates(rows, { existing, skipDuplicates });
    const resultsJson = await importResultsJson(results);
    if (dryRun || accepted.length === 0) {
      const { disableBalanceOnAdd } = await readPreferences(context.trx, ownerId);
      return unchanged({ resultsJson, imported: 0, balancesZeroed: disableBalanceOnAdd });
    }
    const { balancesZeroed } = await addImportedClients(context, ownerId, accepted);
    return { resultsJson, imported: accepted.length, balancesZeroed };
  },
);
