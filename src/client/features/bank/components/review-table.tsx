import { useId } from 'react';
import type { Currency } from '../../../../shared/money.ts';
import type { PreviewLine } from '../../../../shared/schemas/bank.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import {
  confidenceFilters,
  shownBy,
  type ChoiceProblem,
  type ConfidenceFilter,
  type LineChoice,
} from '../review.ts';
import { useBankTexts } from './bank-texts.ts';
import { ReviewRow } from './review-row.tsx';

import type { ClientName } from '../bank-import-state.ts';

/** The statement's incoming lines, each with who paid it: checked, changed, split or skipped. */
export function ReviewTable({
  lines,
  choices,
  currency,
  clients,
  filter,
  problems,
  onFilter,
  onChoice,
  onClientNamed,
}: {
  lines: readonly PreviewLine[];
  choices: ReadonlyMap<string, LineChoice>;
  currency: Currency;
  clients: ReadonlyMap<string, ClientName>;
  filter: ConfidenceFilter;
  /** Shown once the owner tried to record: what stops a checked line. */
  problems: ReadonlyMap<string, ChoiceProblem>;
  onFilter: (filter: ConfidenceFilter) => void;
  onChoice: (lineId: string, choice: LineChoice) => void;
  onClientNamed: (client: ClientName) => void;
}) {
  const { t } = useI18n();
  const texts = useBankTexts();
  const id = useId();
  const counts = Object.fromEntries(
    confidenceFilters.map((name) => [name, lines.filter((line) => shownBy(name, line)).length]),
  ) as Record<ConfidenceFilter, number>;
  const shown = lines.filter((line) => shownBy(filter, line));

  return (
    <>
      <fieldset className="mb-2">
        <legend className="form-label small mb-1">{t('bank.filter.legend')}</legend>
        <div className="d-flex flex-wrap gap-1">
          {confidenceFilters.map((name) => (
            <div key={name}>
              <input
                type="radio"
                className="btn-check"
                name={`${id}-filter`}
                id={`${id}-filter-${name}`}
                checked={filter === name}
                onChange={() => onFilter(name)}
              />
              <label className="btn btn-sm btn-outline-secondary" htmlFor={`${id}-filter-${name}`}>
                {t('bank.filter.option', { name: texts.filter[name], count: counts[name] })}
              </label>
            </div>
          ))}
        </div>
      </fieldset>

      <div
        className="table-responsive scroll-region border rounded mb-3"
        role="region"
        aria-labelledby={`${id}-caption`}
        tabIndex={0}
      >
        <table className="table table-sm align-middle mb-0 bank-review">
          <caption id={`${id}-caption`} className="px-2">
            {t('bank.review.caption', { shown: shown.length, count: lines.length })}
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">{t('bank.review.record')}</span>
              </th>
              <th scope="col">{t('bank.field.date')}</th>
              <th scope="col">{t('bank.field.description')}</th>
              <th scope="col" className="text-end">
                {t('bank.field.amount')}
              </th>
              <th scope="col">{t('bank.review.paid-by')}</th>
              <th scope="col">{t('bank.review.confidence')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 && (
              <tr>
                <td colSpan={6} className="text-center text-body-secondary py-3">
                  {t('bank.review.none-shown')}
                </td>
              </tr>
            )}
            {shown.map((line) => {
              const choice = choices.get(line.id);
              if (!choice) return null;
              return (
                <ReviewRow
                  key={line.id}
                  id={id}
                  line={line}
                  choice={choice}
                  currency={currency}
                  clients={clients}
                  problem={problems.get(line.id)}
                  onChoice={onChoice}
                  onClientNamed={onClientNamed}
                />
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
