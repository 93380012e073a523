import { useEffect, useRef } from 'react';
import type { Currency } from '../../../../shared/money.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useBankLayouts } from '../api/bank-layouts.ts';
import { ImportResult } from './import-result.tsx';
import { PayerRules } from './payer-rules.tsx';
import { ReviewStep } from './review-step.tsx';
import { StatementUpload, useUploadForm } from './statement-upload.tsx';
import { useBankImport } from './use-bank-import.ts';
import { useStatementFile } from './use-statement-file.ts';

/** Payments from the bank: the statement and its columns, then who paid each line, then undo. */
export function BankImport({ mainCurrency }: { mainCurrency: Currency }) {
  const { t } = useI18n();
  const layouts = useBankLayouts();
  const upload = useUploadForm(mainCurrency);
  const file = useStatementFile(upload, layouts.data);
  const bankImport = useBankImport(upload);
  const { state, step } = bankImport;
  const heading = useRef<HTMLHeadingElement>(null);

  // A new step replaces what had focus: the heading takes it, as on a new page.
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    heading.current?.focus();
  }, [step]);

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-xl-11">
        <div className="card">
          <div className="card-header">
            <h1 ref={heading} tabIndex={-1} className="h5 mb-0">
              {t('bank.heading')}
            </h1>
            <p className="small text-body-secondary mb-0">
              {step === 'upload'
                ? t('bank.step.upload')
                : step === 'review'
                  ? t('bank.step.review')
                  : t('bank.step.done')}
            </p>
          </div>
          <div className="card-body">
            {step === 'upload' && (
              <StatementUpload
                upload={upload}
                accounts={file.accounts}
                busy={bankImport.reading}
                onFile={(chosen) => void file.chooseFile(chosen)}
                onEncoding={file.changeEncoding}
                onSubmit={bankImport.readStatement}
              />
            )}

            {step === 'review' && state.previewed && (
              <ReviewStep
                previewed={state.previewed}
                state={state}
                dispatch={bankImport.dispatch}
                problems={bankImport.lineProblems}
                selected={bankImport.selected}
                recording={bankImport.recording}
                onRecord={() => void bankImport.record()}
              />
            )}

            {step === 'done' && state.outcome && (
              <ImportResult
                outcome={state.outcome}
                undone={state.undone}
                undoing={bankImport.undoing}
                undoProblem={state.undoProblem}
                onUndo={() => void bankImport.undoBatch()}
                onAnother={bankImport.startAgain}
              />
            )}
          </div>
        </div>
        {step === 'upload' && <PayerRules />}
      </div>
    </div>
  );
}
