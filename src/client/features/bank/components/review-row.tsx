import type { Currency } from '../../../../shared/money.ts';
import { toDecimalText } from '../../../../shared/money.ts';
import type { PreviewLine } from '../../../../shared/schemas/bank.ts';
import { clientName } from '../../../../shared/names.ts';
import { dayText } from '../../../components/formats.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { ClientName } from '../bank-import-state.ts';
import type { ChoiceProblem, LineChoice } from '../review.ts';
import { confidenceClass, useBankTexts } from './bank-texts.ts';
import { ClientPicker } from './client-picker.tsx';
import { useProblemText } from './problem-text.ts';
import { SplitPayer } from './split-payer.tsx';

/** One incoming line: whether to record it, what it says, and who paid it, how surely. */
export function ReviewRow({
  id,
  line,
  choice,
  currency,
  clients,
  problem,
  onChoice,
  onClientNamed,
}: {
  /** The table's id, that the row's own ids start with. */
  id: string;
  line: PreviewLine;
  choice: LineChoice;
  currency: Currency;
  clients: ReadonlyMap<string, ClientName>;
  problem: ChoiceProblem | undefined;
  onChoice: (lineId: string, choice: LineChoice) => void;
  onClientNamed: (client: ClientName) => void;
}) {
  const { t, format } = useI18n();
  const texts = useBankTexts();
  const problemText = useProblemText(currency);
  const money = (minor: number) => format.money(minor, currency);
  const nameOf = (clientId: string | undefined) => {
    const client = clientId === undefined ? undefined : clients.get(clientId);
    return client ? clientName(client) : '';
  };
  const rowId = `${id}-line-${line.line}`;
  const chosenSuggestion = line.suggestions.find(
    (suggestion) => !choice.split && suggestion.clientId === choice.parts[0]?.clientId,
  );
  const setParts = (parts: LineChoice['parts'], split = choice.split) =>
    onChoice(line.id, { ...choice, parts, split, selected: true });
  return (
    <tr
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
            description: line.counterparty
              ? `${line.counterparty} ${line.description}`
              : line.description,
          })}
          onChange={(event) => onChoice(line.id, { ...choice, selected: event.target.checked })}
        />
      </td>
      <td data-label={t('bank.field.date')} className="text-nowrap bank-date">
        {dayText(line.date, format)}
      </td>
      <td data-label={t('bank.field.description')} className="bank-description">
        {/* The payer's own column, when the statement has one (보낸분). */}
        {line.counterparty && <span className="d-block fw-semibold">{line.counterparty}</span>}
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
          <SplitPayer
            line={line}
            choice={choice}
            currency={currency}
            clients={clients}
            setParts={setParts}
            onClientNamed={onClientNamed}
          />
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
        {!line.alreadyRecorded && chosenSuggestion?.pays && (
          <fieldset className="small mt-1 mb-0">
            <legend className="small fw-normal text-body-secondary mb-0">
              {t('bank.review.pays')}
            </legend>
            {chosenSuggestion.pays.map((charge) => {
              const checkId = `${rowId}-pays-${charge.entryId}`;
              const dropped = choice.dropped ?? [];
              return (
                <div key={charge.entryId} className="form-check mb-0">
                  <input
                    type="checkbox"
                    className="form-check-input"
                    id={checkId}
                    checked={!dropped.includes(charge.entryId)}
                    onChange={(event) =>
                      onChoice(line.id, {
                        ...choice,
                        dropped: event.target.checked
                          ? dropped.filter((id) => id !== charge.entryId)
                          : [...dropped, charge.entryId],
                      })
                    }
                  />
                  <label className="form-check-label" htmlFor={checkId}>
                    {[
                      charge.reference,
                      charge.note,
                      dayText(charge.date, format),
                      money(charge.openAmount),
                    ]
                      .filter((part) => part !== '')
                      .join(' · ')}
                  </label>
                </div>
              );
            })}
            {(choice.dropped ?? []).length > 0 && (
              <span className="d-block text-body-secondary">{t('bank.review.pays-rest')}</span>
            )}
          </fieldset>
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
          <span className="small text-body-secondary">{t('bank.review.chosen-by-you')}</span>
        ) : (
          <span className="small text-body-secondary">{t('bank.review.no-match')}</span>
        )}
      </td>
    </tr>
  );
}
