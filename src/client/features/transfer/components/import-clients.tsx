import { useState } from 'react';
import Papa from 'papaparse';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { ImportResult } from '../../../../shared/schemas/clients.ts';
import { useFlash } from '../../../components/flash.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { checkImport, commitImport, type ImportRow } from '../api/import-clients.ts';
import {
  fieldLabels,
  guessMapping,
  importFields,
  toImportRow,
  type ImportField,
  quoteProblem,
} from '../csv-mapping.ts';

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
export function ImportClients() {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [file, setFile] = useState<ParsedFile | null>(null);
  const [mapping, setMapping] = useState<Record<ImportField, number | null> | null>(null);
  const [skipDuplicates, setSkipDuplicates] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [prepared, setPrepared] = useState<{
    rows: ImportRow[];
    balanceErrors: (string | null)[];
  } | null>(null);

  const readFile = (chosen: File) => {
    setError(null);
    setStage({ step: 'reading', progress: 0 });
    const lines: string[][] = [];
    let problem: string | null = null;
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
          setError(problem);
          setStage({ step: 'choose' });
          return;
        }
        const [header = [], ...rest] = lines;
        if (rest.length === 0) {
          setError('The file has no rows below its header');
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
        setError(`The file could not be read: ${failure.message}`);
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
      setError(failure instanceof ApiError ? failure.message : 'The check failed');
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
      await queryClient.invalidateQueries({ queryKey: ['clients'] });
      showFlash(
        `${result.imported} ${result.imported === 1 ? 'client' : 'clients'} imported`,
        'success',
      );
      await navigate('/');
    } catch (failure) {
      showFlash('Import Failed', 'danger');
      setError(failure instanceof ApiError ? failure.message : 'The import failed');
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
            <h1 className="h5 mb-0">Import clients from CSV</h1>
          </div>
          <div className="card-body">
            {error && (
              <div className="alert alert-danger py-2" role="alert">
                {error}
              </div>
            )}
            <div className="mb-3">
              <label htmlFor="import-file" className="form-label">
                CSV file
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
              <div className="form-text">
                A header row, then one client per row. Nothing is written until you confirm.
              </div>
            </div>
            {stage.step === 'reading' && (
              <ProgressBar label="Reading the file" value={stage.progress} />
            )}

            {file && mapping && stage.step !== 'reading' && (
              <fieldset
                className="mb-3"
                disabled={stage.step === 'writing' || stage.step === 'checking'}
              >
                <legend className="h6">
                  Columns of {file.name} ({file.lines.length}{' '}
                  {file.lines.length === 1 ? 'row' : 'rows'})
                </legend>
                <div className="row g-2">
                  {importFields.map((field) => (
                    <div key={field} className="col-6 col-md-4">
                      <label htmlFor={`map-${field}`} className="form-label small mb-1">
                        {fieldLabels[field]}
                      </label>
                      <select
                        id={`map-${field}`}
                        className="form-select form-select-sm"
                        value={mapping[field] ?? ''}
                        onChange={(event) => {
                          setMapping({
                            ...mapping,
                            [field]: event.target.value === '' ? null : Number(event.target.value),
                          });
                          setStage({ step: 'mapping' });
                        }}
                      >
                        <option value="">(none)</option>
                        {file.header.map((column, index) => (
                          <option key={index} value={index}>
                            {column || `Column ${index + 1}`}
                          </option>
                        ))}
                      </select>
                    </div>
                  ))}
                </div>
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
                    Leave out rows whose e-mail is already a client, or earlier in the file
                  </label>
                </div>
                <button
                  type="button"
                  className="btn btn-outline-primary mt-3"
                  onClick={() => void check()}
                >
                  Check rows
                </button>
              </fieldset>
            )}
            {stage.step === 'checking' && <ProgressBar label="Checking every row" value={null} />}

            {preview && (
              <section aria-labelledby="preview-heading">
                <h2 id="preview-heading" className="h6">
                  Preview
                </h2>
                <p role="status">
                  {valid} {valid === 1 ? 'row' : 'rows'} will be imported · {invalid} with problems,
                  left out · {duplicates} {duplicates === 1 ? 'duplicate' : 'duplicates'}
                  {skipDuplicates ? ', left out' : ', imported anyway'}
                </p>
                {problems.length > 0 && (
                  // A scrolling box a keyboard can reach and scroll, named for a screen reader.
                  <div
                    className="table-responsive mb-3 scroll-region"
                    style={{ maxHeight: '20rem' }}
                    role="region"
                    aria-label="Rows with problems"
                    tabIndex={0}
                  >
                    <table className="table table-sm">
                      <thead>
                        <tr>
                          <th scope="col">Row</th>
                          <th scope="col">Problem</th>
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
                                  ? 'Duplicate: this e-mail is already a client'
                                  : 'Duplicate: this e-mail is earlier in the file'
                                : Object.entries(result.errors)
                                    .map(
                                      ([field, message]) =>
                                        `${fieldLabels[field as ImportField] ?? field}: ${message}`,
                                    )
                                    .join(' · ')}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                    {problems.length > shownProblems && (
                      <p className="small">…and {problems.length - shownProblems} more.</p>
                    )}
                  </div>
                )}
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={valid === 0}
                  onClick={() => void commit()}
                >
                  Import {valid} {valid === 1 ? 'client' : 'clients'}
                </button>
              </section>
            )}
            {stage.step === 'writing' ? (
              <ProgressBar
                label={stage.progress === null ? 'Writing' : 'Sending'}
                value={stage.progress}
              />
            ) : (
              <Link to="/" className="btn btn-outline-secondary mt-3">
                Cancel
              </Link>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
