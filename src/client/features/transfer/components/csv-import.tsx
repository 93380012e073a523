import { useState } from 'react';
import Papa from 'papaparse';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { ImportResult } from '../../../../shared/schemas/clients.ts';
import { useFlash } from '../../../components/flash.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { refreshOwnerData } from '../../../lib/query-keys.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { checkImport, commitImport, type ImportRow } from '../api/import-clients.ts';
import {
  guessMapping,
  importFields,
  toImportRow,
  type ImportField,
  quoteProblem,
  type QuoteProblem,
} from '../csv-mapping.ts';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { ColumnMapping } from '../../../components/column-mapping.tsx';

interface ParsedFile {
  name: string;
  header: string[];
  lines: string[][];
}

type Stage =
  | { step: 'choose' }
  | { step: 'reading'; progress: number }
  | { step: 'mapping' }
  | { step: 'checking' }
  | { step: 'preview'; result: ImportResult }
  | { step: 'writing'; progress: number | null };

const shownProblems = 200;

/** What stops the import, kept as what happened so it shows in the language chosen later too. */
type ImportError =
  | { kind: 'quote'; problem: QuoteProblem }
  | { kind: 'no-rows' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'check-failed' }
  | { kind: 'import-failed' }
  | { kind: 'server'; message: string };

function useImportTexts() {
  const { t, message } = useI18n();
  const fieldLabels: Record<ImportField, string> = {
    firstName: t('transfer.field.first-name'),
    lastName: t('transfer.field.last-name'),
    email: t('transfer.field.email'),
    phone: t('transfer.field.phone'),
    balance: t('transfer.field.balance'),
    currency: t('transfer.field.currency'),
    openingDate: t('transfer.field.opening-date'),
    openingDueDate: t('transfer.field.opening-due-date'),
    openingReference: t('transfer.field.opening-reference'),
  };
  const errorText = (error: ImportError): string => {
    switch (error.kind) {
      case 'quote':
        return error.problem.line === null
          ? t('transfer.error.unclosed-quote')
          : t('transfer.error.unclosed-quote-at', { line: error.problem.line });
      case 'no-rows':
        return t('transfer.error.no-rows');
      case 'unreadable':
        return t('transfer.error.unreadable', { reason: error.reason });
      case 'check-failed':
        return t('transfer.error.check-failed');
      case 'import-failed':
        return t('transfer.error.import-failed');
      case 'server':
        return message(error.message);
    }
  };
  return { fieldLabels, errorText };
}

function ProgressBar({ label, value }: { label: string; value: number | null }) {
  const percent = value === null ? 100 : Math.round(value * 100);
  return (
    <div className="my-3">
      <div className="small mb-1">{label}</div>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuenow={value === null ? undefined : percent}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div
          className={`progress-bar${value === null ? ' progress-bar-striped progress-bar-animated' : ''}`}
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}

/** CSV import: read the file, map its columns, see every problem, and only then write. */
export function CsvImport() {
  const { t, message } = useI18n();
  const { fieldLabels, errorText } = useImportTexts();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [file, setFile] = useState<ParsedFile | null>(null);
  const [mapping, setMapping] = useState<Record<ImportField, number | null> | null>(null);
  const [skipDuplicates, setSkipDuplicates] = useState(true);
  const [error, setError] = useState<ImportError | null>(null);
  const [prepared, setPrepared] = useState<{
    rows: ImportRow[];
    balanceErrors: (string | null)[];
  } | null>(null);

  const readFile = (chosen: File) => {
    setError(null);
    setStage({ step: 'reading', progress: 0 });
    const lines: string[][] = [];
    let problem: QuoteProblem | null = null;
    Papa.parse<string[]>(chosen, {
      skipEmptyLines: 'greedy',
      chunkSize: 256 * 1024,
      chunk: (results, parser) => {
        problem = quoteProblem(results.errors, lines.length);
        if (problem) {
          parser.abort();
          return;
        }
        lines.push(...results.data);
        setStage({
          step: 'reading',
          progress: Math.min(1, results.meta.cursor / Math.max(1, chosen.size)),
        });
      },
      complete: () => {
        if (problem) {
          setError({ kind: 'quote', problem });
          setStage({ step: 'choose' });
          return;
        }
        const [header = [], ...rest] = lines;
        if (rest.length === 0) {
          setError({ kind: 'no-rows' });
          setStage({ step: 'choose' });
          return;
        }
        setFile({
          name: chosen.name,
          header: header.map((cell) => cell.replace(/^\uFEFF/, '')),
          lines: rest,
        });
        setMapping(guessMapping(header.map((cell) => cell.replace(/^\uFEFF/, ''))));
        setStage({ step: 'mapping' });
      },
      error: (failure) => {
        setError({ kind: 'unreadable', reason: failure.message });
        setStage({ step: 'choose' });
      },
    });
  };

  const check = async () => {
    if (!file || !mapping) return;
    setError(null);
    setStage({ step: 'checking' });
    const converted = file.lines.map((line) => toImportRow(line, mapping));
    const next = {
      rows: converted.map((item) => item.row),
      balanceErrors: converted.map((item) => item.balanceError),
    };
    setPrepared(next);
    try {
      setStage({ step: 'preview', result: await checkImport(next.rows, skipDuplicates) });
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? { kind: 'server', message: failure.message }
          : { kind: 'check-failed' },
      );
      setStage({ step: 'mapping' });
    }
  };

  const commit = async () => {
    if (!prepared) return;
    setStage({ step: 'writing', progress: 0 });
    try {
      const result = await commitImport(prepared.rows, skipDuplicates, (progress) =>
        setStage({ step: 'writing', progress: progress >= 1 ? null : progress }),
      );
      await refreshOwnerData(queryClient);
      showFlash(t('transfer.imported', { count: result.imported }), 'success');
      await navigate('/');
    } catch (failure) {
      showFlash(t('transfer.import-failed'), 'danger');
      setError(
        failure instanceof ApiError
          ? { kind: 'server', message: failure.message }
          : { kind: 'import-failed' },
      );
      setStage({ step: 'mapping' });
    }
  };

  const preview = stage.step === 'preview' ? stage.result : null;
  const problems = preview
    ? preview.results
        .map((result) => {
          const balanceError = prepared?.balanceErrors[result.row] ?? null;
          const errors = { ...result.errors, ...(balanceError ? { balance: balanceError } : {}) };
          return { ...result, errors, status: balanceError ? ('invalid' as const) : result.status };
        })
        .filter((result) => result.status !== 'ok')
    : [];
  const invalid = problems.filter((result) => result.status === 'invalid').length;
  const duplicates = problems.filter((result) => result.status === 'duplicate').length;
  const valid = preview ? preview.results.length - invalid - (skipDuplicates ? duplicates : 0) : 0;

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-10">
        <div className="card">
          <div className="card-header">
            <h1 className="h5 mb-0">{t('transfer.heading')}</h1>
          </div>
          <div className="card-body">
            {error && (
              <div className="alert alert-danger py-2" role="alert">
                {errorText(error)}
              </div>
            )}
            <div className="mb-3">
              <label htmlFor="import-file" className="form-label">
                {t('transfer.file.label')}
              </label>
              <input
                id="import-file"
                type="file"
                accept=".csv,text/csv"
                className="form-control"
                disabled={stage.step === 'reading' || stage.step === 'writing'}
                onChange={(event) => {
                  const chosen = event.target.files?.[0];
                  if (chosen) readFile(chosen);
                }}
              />
              <div className="form-text">{t('transfer.file.help')}</div>
            </div>
            {stage.step === 'reading' && (
              <ProgressBar label={t('transfer.reading')} value={stage.progress} />
            )}

            {file && mapping && stage.step !== 'reading' && (
              <fieldset
                className="mb-3"
                disabled={stage.step === 'writing' || stage.step === 'checking'}
              >
                <legend className="h6">
                  {t('transfer.columns-of', { file: file.name, count: file.lines.length })}
                </legend>
                <ColumnMapping
                  idPrefix="map"
                  fields={importFields}
                  labels={fieldLabels}
                  header={file.header}
                  mapping={mapping}
                  onChange={(field, column) => {
                    setMapping({ ...mapping, [field]: column });
                    setStage({ step: 'mapping' });
                  }}
                />
                <div className="form-check mt-3">
                  <input
                    id="skip-duplicates"
                    type="checkbox"
                    className="form-check-input"
                    checked={skipDuplicates}
                    onChange={(event) => {
                      setSkipDuplicates(event.target.checked);
                      setStage({ step: 'mapping' });
                    }}
                  />
                  <label htmlFor="skip-duplicates" className="form-check-label">
                    {t('transfer.skip-duplicates')}
                  </label>
                </div>
                <button
                  type="button"
                  className="btn btn-outline-primary mt-3"
                  onClick={() => void check()}
                >
                  {t('transfer.check')}
                </button>
              </fieldset>
            )}
            {stage.step === 'checking' && (
              <ProgressBar label={t('transfer.checking')} value={null} />
            )}

            {preview && (
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
                            className={
                              result.status === 'invalid' ? 'table-danger' : 'table-warning'
                            }
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
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={valid === 0}
                  onClick={() => void commit()}
                >
                  {t('transfer.import', { count: valid })}
                </button>
              </section>
            )}
            {stage.step === 'writing' ? (
              <ProgressBar
                label={stage.progress === null ? t('transfer.writing') : t('transfer.sending')}
                value={stage.progress}
              />
            ) : (
              <Link to="/" className="btn btn-outline-secondary mt-3">
                {t('transfer.cancel')}
              </Link>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
