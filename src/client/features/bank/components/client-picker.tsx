import { useEffect, useId, useRef, useState } from 'react';
import type { Currency } from '../../../../shared/money.ts';
import type { Suggestion } from '../../../../shared/schemas/bank.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { clientName } from '../../../../shared/names.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useClientSearch } from '../api/payer-clients.ts';
import { useBankTexts } from './bank-texts.ts';

const searchValue = '?';

/**
 * Who paid: a select of the clients suggested (each with its reason) and, at its end, a search
 * of the other clients of the statement's currency, opened in place.
 */
export function ClientPicker({
  label,
  currency,
  value,
  suggestions,
  clients,
  onChange,
}: {
  label: string;
  currency: Currency;
  value: string | null;
  suggestions: readonly Suggestion[];
  clients: ReadonlyMap<string, Pick<Client, 'id' | 'firstName' | 'lastName'>>;
  onChange: (clientId: string, client?: Pick<Client, 'id' | 'firstName' | 'lastName'>) => void;
}) {
  const { t, message } = useI18n();
  const texts = useBankTexts();
  const id = useId();
  const [searching, setSearching] = useState(false);
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  const select = useRef<HTMLSelectElement>(null);
  const search = useClientSearch(q, currency, searching);

  // The search asks once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);

  // The preview names every client it suggests; a search names the one it finds.
  const nameOf = (clientId: string) => {
    const client = clients.get(clientId);
    return client ? clientName(client) : clientId;
  };
  const suggested = new Set(suggestions.map((suggestion) => suggestion.clientId));
  const close = () => {
    setSearching(false);
    setTyped('');
    // Back to the select, so Tab goes on in the row's order.
    setTimeout(() => select.current?.focus(), 0);
  };

  return (
    <div className="client-picker">
      <select
        ref={select}
        className="form-select form-select-sm"
        aria-label={label}
        value={searching ? searchValue : (value ?? '')}
        onChange={(event) => {
          if (event.target.value === searchValue) setSearching(true);
          else if (event.target.value !== '') onChange(event.target.value);
        }}
      >
        <option value="" disabled>
          {t('bank.client.choose')}
        </option>
        {suggestions.map((suggestion) => (
          <option key={suggestion.clientId} value={suggestion.clientId}>
            {t('bank.client.suggested', {
              name: nameOf(suggestion.clientId),
              reason: texts.shortReason[suggestion.reason],
            })}
          </option>
        ))}
        {value !== null && !suggested.has(value) && <option value={value}>{nameOf(value)}</option>}
        <option value={searchValue}>{t('bank.client.search-other')}</option>
      </select>
      {searching && (
        <div className="border rounded p-2 mt-1 bg-body">
          <label htmlFor={`${id}-search`} className="form-label small mb-1">
            {t('bank.client.search-label', { currency })}
          </label>
          <div className="d-flex gap-1">
            <input
              id={`${id}-search`}
              type="search"
              className="form-control form-control-sm"
              // The owner asked for the search: the cursor goes where they will type.
              autoFocus
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              onKeyDown={(event) => {
                // i18n-ignore: a key's name
                if (event.key === 'Escape') {
                  event.preventDefault();
                  close();
                }
              }}
            />
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={close}>
              {t('bank.client.search-close')}
            </button>
          </div>
          <div aria-live="polite">
            {search.isError && (
              <p className="small text-danger mb-0 mt-1">{message(search.error.message)}</p>
            )}
            {search.data && search.data.clients.length === 0 && (
              <p className="small mb-0 mt-1">{t('bank.client.search-none')}</p>
            )}
          </div>
          {search.data && search.data.clients.length > 0 && (
            <ul className="list-unstyled mb-0 mt-1">
              {search.data.clients.map((client) => (
                <li key={client.id}>
                  <button
                    type="button"
                    className="btn btn-link btn-sm p-0 text-start"
                    onClick={() => {
                      onChange(client.id, client);
                      close();
                    }}
                  >
                    {clientName(client)}
                    {client.email && <span className="text-body-secondary"> · {client.email}</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
