import {
  importResultSchema,
  type ClientInput,
  type ImportResult,
} from '../../../../shared/schemas/clients.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { currentLocale, i18n } from '../../../i18n/i18n.ts';
import { intlLocales } from '../../../../shared/locales.ts';
import { errorBodySchema } from '../../../../shared/schemas/errors.ts';

export type ImportRow = Partial<Record<keyof ClientInput, unknown>>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Checks the rows on the server without writing anything. */
export function checkImport(rows: ImportRow[], skipDuplicates: boolean): Promise<ImportResult> {
  return apiRequest('POST', '/api/clients/import', {
    body: { rows, dryRun: true, skipDuplicates },
    schema: importResultSchema,
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
      const data = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300) {
        const parsed = importResultSchema.safeParse(data);
        if (parsed.success) resolve(parsed.data);
        else reject(new ApiError(request.status, 'internal', i18n._('common.unreadable-answer')));
        return;
      }
      const error = errorBodySchema.safeParse(data);
      reject(
        error.success
          ? new ApiError(
              request.status,
              error.data.error.code,
              error.data.error.message,
              error.data.error.fields,
            )
          : new ApiError(
              request.status,
              'internal',
              i18n._('common.server-answered', { status: request.status }),
            ),
      );
    };
    request.send(JSON.stringify({ rows, dryRun: false, skipDuplicates }));
  });
}
