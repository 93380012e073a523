import type { RestoreSummary } from '../../../../shared/schemas/restore.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';

/** What restoring this export file would bring back; the server changes nothing. */
export function previewRestore(file: unknown): Promise<RestoreSummary> {
  return callApi(apiRoutes.restore, { body: file, query: { dryRun: 'true' } });
}

/** Restores the export file into the signed-in account, all or nothing. */
export function restoreAccount(file: unknown): Promise<RestoreSummary> {
  return callApi(apiRoutes.restore, { body: file });
}
