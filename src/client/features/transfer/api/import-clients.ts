import type { ClientInput, ImportResult } from '../../../../shared/schemas/clients.ts';
import { ApiError, apiRequest, readAnswer } from '../../../lib/api-client.ts';
import { currentLocale, i18n } from '../../../i18n/i18n.ts';
import { intlLocales } from '../../../../shared/locales.ts';

export type ImportRow = Partial<Record<keyof ClientInput, unknown>>;

/** Checks the rows on the server without writing anything. */
export function checkImport(rows: ImportRow[], skipDuplicates: boolean): Promise<ImportResult> {
  return apiRequest<ImportResult>('POST', '/api/clients/import', {
    body: { rows, dryRun: true, skipDuplicates },
  });
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
    request.open('POST', '/api/clients/import');
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
    request.send(JSON.stringify({ rows, dryRun: false, skipDuplicates }));
  });
}
