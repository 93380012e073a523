import type { Currency } from '../../../../shared/money.ts';
import type { PreviewLine } from '../../../../shared/schemas/bank.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { ClientName } from '../bank-import-state.ts';
import { allocationsOf, type LineChoice } from '../review.ts';
import { ClientPicker } from './client-picker.tsx';
import { useProblemText } from './problem-text.ts';

/** A line paid by several clients: a client and an amount for each part, and whether they add up. */
export function SplitPayer({
  line,
  choice,
  currency,
  clients,
  setParts,
  onClientNamed,
}: {
  line: PreviewLine;
  choice: LineChoice;
  currency: Currency;
  clients: ReadonlyMap<string, ClientName>;
  setParts: (parts: LineChoice['parts'], split?: boolean) => void;
  onClientNamed: (client: ClientName) => void;
}) {
  const { t, format } = useI18n();
  const problemText = useProblemText(currency);
  const money = (minor: number) => format.money(minor, currency);
  const check = allocationsOf(line, choice, currency);
  return (
    <div role="group" aria-label={t('bank.split.group', { line: line.line })}>
      {choice.parts.map((part, index) => (
        <div key={index} className="d-flex flex-wrap gap-1 mb-1 align-items-start">
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
                  choice.parts.map((other, at) => (at === index ? { ...other, clientId } : other)),
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
                  at === index ? { ...other, amountText: event.target.value } : other,
                ),
              )
            }
          />
          {choice.parts.length > 2 && (
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() => setParts(choice.parts.filter((_, at) => at !== index))}
            >
              {t('bank.split.remove')}
              <span className="visually-hidden"> {t('bank.split.part', { part: index + 1 })}</span>
            </button>
          )}
        </div>
      ))}
      <p className={`small mb-1 ${check.ok ? 'text-success' : 'text-danger'}`} aria-live="polite">
        {check.ok
          ? t('bank.split.adds-up', { amount: money(line.amount) })
          : problemText(line, check.problem)}
      </p>
      <div className="d-flex flex-wrap gap-1">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={choice.parts.length >= 20}
          onClick={() => setParts([...choice.parts, { clientId: null, amountText: '' }])}
        >
          {t('bank.split.add')}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={() =>
            setParts([{ clientId: choice.parts[0]?.clientId ?? null, amountText: '' }], false)
          }
        >
          {t('bank.split.undo')}
        </button>
      </div>
    </div>
  );
}
