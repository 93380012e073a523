import type { ImportResult } from '../../../../shared/schemas/clients.ts';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { Prepared } from '../csv-import-state.ts';
import type { ImportField } from '../csv-mapping.ts';
import { useImportTexts } from './import-texts.ts';

const shownProblems = 200;

/**
 * The server's check with the balances that did not read added: the rows that are not fine,
 * how many are invalid or duplicates, and how many the import would write.
 */
function previewFigures(preview: ImportResult, prepared: Prepared | null, skipDuplicates: boolean) {
  const problems = preview.results
    .map((result) => {
      const balanceError = prepared?.balanceErrors[result.row] ?? null;
      const errors = { ...result.errors, ...(balanceError ? { balance: balanceError } : {}) };
      return { ...result, errors, status: balanceError ? ('invalid' as const) : result.status };
    })
    .filter((result) => result.status !== 'ok');
  const invalid = problems.filter((result) => result.status === 'invalid').length;
  const duplicates = problems.filter((result) => result.status === 'duplicate').length;
  const valid = preview.results.length - invalid - (skipDuplicates ? duplicates : 0);
  return { problems, invalid, duplicates, valid };
}

/** Step 3: what the check found, row by row, and the button that writes the valid rows. */
export function ImportPreview({
  preview,
  prepared,
  skipDuplicates,
  onCommit,
}: {
  preview: ImportResult;
  prepared: Prepared | null;
  skipDuplicates: boolean;
  onCommit: () => void;
}) {
  const { t, message } = useI18n();
  const { fieldLabels } = useImportTexts();
  const { problems, invalid, duplicates, valid } = previewFigures(
    preview,
    prepared,
    skipDuplicates,
  );
  return (
    <section aria-labelledby="preview-heading">
      <h2 id="preview-heading" className="h6">
        {t('transfer.preview')}
      </h2>
      <p role="status">
        {skipDuplicates
          ? t('transfer.summary.duplicates-left-out', { valid, invalid, duplicates })
          : t('transfer.summary.duplicates-imported', { valid, invalid, duplicates })}
      </p>
      {problems.length > 0 && (
        <ScrollRegion
          label={t('transfer.problems.label')}
          className="mb-3"
          style={{ maxHeight: '20rem' }}
        >
          <table className="table table-sm">
            <thead>
              <tr>
                <th scope="col">{t('transfer.problems.row')}</th>
                <th scope="col">{t('transfer.problems.problem')}</th>
              </tr>
            </thead>
            <tbody>
              {problems.slice(0, shownProblems).map((result) => (
                <tr
                  key={result.row}
                  className={result.status === 'invalid' ? 'table-danger' : 'table-warning'}
                >
                  {/* Line numbers as a spreadsheet shows them: the header is line 1. */}
                  <td>{result.row + 2}</td>
                  <td>
                    {result.status === 'duplicate'
                      ? result.duplicateOf === 'existing'
                        ? t('transfer.problems.duplicate-of-client')
                        : t('transfer.problems.duplicate-in-file')
                      : Object.entries(result.errors)
                          .map(([field, problem]) =>
                            t('transfer.problems.field', {
                              field: fieldLabels[field as ImportField] ?? field,
                              problem: message(problem),
                            }),
                          )
                          .join(' · ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {problems.length > shownProblems && (
            <p className="small">
              {t('transfer.problems.more', { count: problems.length - shownProblems })}
            </p>
          )}
        </ScrollRegion>
      )}
      <button type="button" className="btn btn-primary" disabled={valid === 0} onClick={onCommit}>
        {t('transfer.import', { count: valid })}
      </button>
    </section>
  );
}
