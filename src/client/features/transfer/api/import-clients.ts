import { apiRoutes, type ApiAnswer, type ApiCall } from '../../../../shared/api-routes.ts';
import type { ClientInput } from '../../../../shared/schemas/clients.ts';
import { ApiError, callApi, readAnswer } from '../../../lib/api-client.ts';
import { currentLocale, i18n } from '../../../i18n/i18n.ts';
import { intlLocales } from '../../../../shared/locales.ts';

export type ImportRow = Partial<Record<keyof ClientInput, unknown>>;
type ImportResult = ApiAnswer<typeof apiRoutes.importClients>;

/** Checks the rows on the server without writing anything. */
export function checkImport(rows: ImportRow[], skipDuplicates: boolean): Promise<ImportResult> {
  return callApi(apiRoutes.importClients, { body: { rows, dryRun: true, skipDuplicates } });
}

/**
 * Writes the rows. XMLHttpRequest rather than fetch, because only it reports how much of a
 * large upload has been sent.
 */
export function commitImport(
  rows: ImportRow[],
  skipDuplicates: boolean,
  onUploadProgress: (fraction: number) => void,
): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(apiRoutes.importClients.method, apiRoutes.importClients.path);
    request.setRequestHeader('content-type', 'application/json');
    // As the API client does: the server answers its messages in the shown language.
    request.setRequestHeader('accept-language', intlLocales[currentLocale()]);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onUploadProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new ApiError(0, 'network', i18n._('common.unreachable')));
    request.onload = () => {
      try {
        resolve(readAnswer<ImportResult>(request.status, request.responseText));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const body: ApiCall<typeof apiRoutes.importClients>['body'] = {
      rows,
      dryRun: false,
      skipDuplicates,
    };
    request.send(JSON.stringify(body));
  });
}
