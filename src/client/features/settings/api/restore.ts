import type { RestoreSummary } from '../../../../shared/schemas/restore.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** What restoring this export file would bring back; the server changes nothing. */
export function previewRestore(file: unknown): Promise<RestoreSummary> {
  // i18n-ignore: an address
  return apiRequest<RestoreSummary>('POST', '/api/restore?dryRun=true', {
    body: file,
  });
}

/** Restores the export file into the signed-in account, all or nothing. */
export function restoreAccount(file: unknown): Promise<RestoreSummary> {
  return apiRequest<RestoreSummary>('POST', '/api/restore', { body: file });
}
