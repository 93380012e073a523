import { useId } from 'react';
import type { Currency } from '../../../../shared/money.ts';
import { toDecimalText } from '../../../../shared/money.ts';
import type { PreviewLine } from '../../../../shared/schemas/bank.ts';
import { displayName } from '../../../../shared/names.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { dayText } from '../../../components/formats.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import {
  allocationsOf,
  confidenceFilters,
  shownBy,
  type ChoiceProblem,
  type ConfidenceFilter,
  type LineChoice,
} from '../review.ts';
import { ClientPicker } from './client-picker.tsx';
import { confidenceClass, useBankTexts } from './bank-texts.ts';

type ClientName = Pick<Client, 'id' | 'firstName' | 'lastName'>;

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
  const { t, format, message } = useI18n();
  const texts = useBankTexts();
  const nameOf = (id: string | undefined) => {
    const client = id === undefined ? undefined : clients.get(id);
    return client ? displayName(client) : '';
  };
  const id = useId();
  const money = (minor: number) => format.money(minor, currency);
  const counts = Object.fromEntries(
    confidenceFilters.map((name) => [name, lines.filter((line) => shownBy(name, line)).length]),
  ) as Record<ConfidenceFilter, number>;
  const shown = lines.filter((line) => shownBy(filter, line));

  const problemText = (line: PreviewLine, problem: ChoiceProblem) => {
    switch (problem.kind) {
      case 'no-client':
        return t('bank.problem.no-client');
      case 'bad-amount':
        return problem.error ? message(problem.error) : t('bank.problem.amount-above-zero');
      case 'sum':
        return problem.difference > 0
          ? t('bank.problem.sum-short', {
              total: money(problem.total),
              amount: money(line.amount),
              left: money(problem.difference),
            })
          : t('bank.problem.sum-over', {
              total: money(problem.total),
              amount: money(line.amount),
              over: money(-problem.difference),
            });
    }
  };

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
              const rowId = `${id}-line-${line.line}`;
              const problem = problems.get(line.id);
              const chosenSuggestion = line.suggestions.find(
                (suggestion) => !choice.split && suggestion.clientId === choice.parts[0]?.clientId,
              );
              const setParts = (parts: LineChoice['parts'], split = choice.split) =>
                onChoice(line.id, { ...choice, parts, split, selected: true });
              const check = allocationsOf(line, choice, currency);
              return (
                <tr
                  key={line.id}
                  className={line.alreadyRecorded ? 'bank-recorded' : undefined}
                  aria-describedby={problem ? `${rowId}-problem` : undefined}
                >
                  <td className="bank-check">
                    <input
                      type="checkbox"
                      className="form-check-input"
                      id={`${rowId}-check`}
                      checked={choice.selected}
                      disabled={line.alreadyRecorded}
                      aria-label={t('bank.review.record-line', {
                        line: line.line,
                        amount: money(line.amount),
                        description: line.description,
                      })}
                      onChange={(event) =>
                        onChoice(line.id, { ...choice, selected: event.target.checked })
                      }
                    />
                  </td>
                  <td data-label={t('bank.field.date')} className="text-nowrap bank-date">
                    {dayText(line.date, format)}
                  </td>
                  <td data-label={t('bank.field.description')} className="bank-description">
                    <span>{line.description}</span>
                    {line.reference && (
                      <span className="d-block small text-body-secondary">{line.reference}</span>
                    )}
                    <span className="d-block small text-body-secondary">
                      {t('bank.review.line', { line: line.line })}
                    </span>
                  </td>
                  <td
                    data-label={t('bank.field.amount')}
                    className="text-end text-nowrap fw-semibold bank-amount"
                  >
                    {money(line.amount)}
                  </td>
                  <td data-label={t('bank.review.paid-by')} className="bank-payer">
                    {line.alreadyRecorded ? (
                      <span className="badge text-bg-light border">{t('bank.review.already')}</span>
                    ) : choice.split ? (
                      <div role="group" aria-label={t('bank.split.group', { line: line.line })}>
                        {choice.parts.map((part, index) => (
                          <div
                            key={index}
                            className="d-flex flex-wrap gap-1 mb-1 align-items-start"
                          >
                            <div style={{ flex: '1 1 10rem', minWidth: 0 }}>
                              <ClientPicker
                                label={t('bank.split.client', { part: index + 1, line: line.line })}
                                currency={currency}
                                value={part.clientId}
                                suggestions={line.suggestions}
                                clients={clients}
                                onChange={(clientId, client) => {
                                  if (client) onClientNamed(client);
                                  setParts(
                                    choice.parts.map((other, at) =>
                                      at === index ? { ...other, clientId } : other,
                                    ),
                                  );
                                }}
                              />
                            </div>
                            <input
                              className="form-control form-control-sm text-end"
                              style={{ width: '7.5rem' }}
                              inputMode="decimal"
                              aria-label={t('bank.split.amount', {
                                part: index + 1,
                                line: line.line,
                              })}
                              value={part.amountText}
                              onChange={(event) =>
                                setParts(
                                  choice.parts.map((other, at) =>
                                    at === index
                                      ? { ...other, amountText: event.target.value }
                                      : other,
                                  ),
                                )
                              }
                            />
                            {choice.parts.length > 2 && (
                              <button
                                type="button"
                                className="btn btn-sm btn-outline-secondary"
                                onClick={() =>
                                  setParts(choice.parts.filter((_, at) => at !== index))
                                }
                              >
                                {t('bank.split.remove')}
                                <span className="visually-hidden">
                                  {' '}
                                  {t('bank.split.part', { part: index + 1 })}
                                </span>
                              </button>
                            )}
                          </div>
                        ))}
                        <p
                          className={`small mb-1 ${check.ok ? 'text-success' : 'text-danger'}`}
                          aria-live="polite"
                        >
                          {check.ok
                            ? t('bank.split.adds-up', { amount: money(line.amount) })
                            : problemText(line, check.problem)}
                        </p>
                        <div className="d-flex flex-wrap gap-1">
                          <button
                            type="button"
                            className="btn btn-sm btn-outline-secondary"
                            disabled={choice.parts.length >= 20}
                            onClick={() =>
                              setParts([...choice.parts, { clientId: null, amountText: '' }])
                            }
                          >
                            {t('bank.split.add')}
                          </button>
                          <button
                            type="button"
                            className="btn btn-sm btn-outline-secondary"
                            onClick={() =>
                              setParts(
                                [{ clientId: choice.parts[0]?.clientId ?? null, amountText: '' }],
                                false,
                              )
                            }
                          >
                            {t('bank.split.undo')}
                          </button>
                        </div>
                      </div>
                    ) : (
                      <div className="d-flex gap-1 align-items-start">
                        <div className="flex-grow-1" style={{ minWidth: 0 }}>
                          <ClientPicker
                            label={t('bank.review.client-of', { line: line.line })}
                            currency={currency}
                            value={choice.parts[0]?.clientId ?? null}
                            suggestions={line.suggestions}
                            clients={clients}
                            onChange={(clientId, client) => {
                              if (client) onClientNamed(client);
                              setParts([{ clientId, amountText: '' }]);
                            }}
                          />
                        </div>
                        <button
                          type="button"
                          className="btn btn-sm btn-outline-secondary flex-shrink-0"
                          aria-label={t('bank.split.start-line', { line: line.line })}
                          onClick={() =>
                            setParts(
                              [
                                {
                                  clientId: choice.parts[0]?.clientId ?? null,
                                  amountText: toDecimalText(line.amount, currency),
                                },
                                { clientId: null, amountText: '' },
                              ],
                              true,
                            )
                          }
                        >
                          {t('bank.split.start')}
                        </button>
                      </div>
                    )}
                    {problem && !choice.split && (
                      <p id={`${rowId}-problem`} className="small text-danger mb-0 mt-1">
                        {problemText(line, problem)}
                      </p>
                    )}
                  </td>
                  <td data-label={t('bank.review.confidence')}>
                    {line.alreadyRecorded ? null : chosenSuggestion ? (
                      <>
                        <span className={`badge ${confidenceClass[chosenSuggestion.confidence]}`}>
                          {texts.confidence[chosenSuggestion.confidence]}
                        </span>
                        <span className="d-block small text-body-secondary">
                          {texts.reason[chosenSuggestion.reason]}
                        </span>
                        {chosenSuggestion.caution && (
                          <span className="d-block small text-warning-emphasis">
                            {texts.caution(
                              chosenSuggestion.caution,
                              nameOf(chosenSuggestion.clientId),
                              nameOf(chosenSuggestion.caution.otherClientId),
                            )}
                          </span>
                        )}
                        {chosenSuggestion.learned && (
                          <span className="d-block small text-body-secondary">
                            {texts.learned(chosenSuggestion.learned)}
                          </span>
                        )}
                      </>
                    ) : choice.split || choice.parts[0]?.clientId ? (
                      <span className="small text-body-secondary">
                        {t('bank.review.chosen-by-you')}
                      </span>
                    ) : (
                      <span className="small text-body-secondary">{t('bank.review.no-match')}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
