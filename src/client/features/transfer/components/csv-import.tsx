import { Link } from 'react-router';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ColumnStep } from './column-step.tsx';
import { ImportPreview } from './import-preview.tsx';
import { useImportTexts } from './import-texts.ts';
import { ProgressBar } from './progress-bar.tsx';
import { useCsvImport } from './use-csv-import.ts';

/** CSV import: read the file, map its columns, see every problem, and only then write. */
export function CsvImport() {
  const { t } = useI18n();
  const { errorText } = useImportTexts();
  const csvImport = useCsvImport();
  const { stage, file, mapping, skipDuplicates, error, prepared } = csvImport.state;

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
                  if (chosen) csvImport.readFile(chosen);
                }}
              />
              <div className="form-text">{t('transfer.file.help')}</div>
            </div>
            {stage.step === 'reading' && (
              <ProgressBar label={t('transfer.reading')} value={stage.progress} />
            )}

            {file && mapping && stage.step !== 'reading' && (
              <ColumnStep
                file={file}
                mapping={mapping}
                skipDuplicates={skipDuplicates}
                disabled={stage.step === 'writing' || stage.step === 'checking'}
                dispatch={csvImport.dispatch}
                onCheck={() => void csvImport.check()}
              />
            )}
            {stage.step === 'checking' && (
              <ProgressBar label={t('transfer.checking')} value={null} />
            )}

            {stage.step === 'preview' && (
              <ImportPreview
                preview={stage.result}
                prepared={prepared}
                skipDuplicates={skipDuplicates}
                onCommit={() => void csvImport.commit()}
              />
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
