import { useId, useState } from 'react';
import { clientName } from '../../../../shared/names.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useBookClients } from '../api/members.ts';

/** A collector's clients: found by name, ticked one by one; the ticks stay through a search. */
export function ClientPicker({
  chosen,
  onChange,
  invalid,
}: {
  chosen: string[];
  onChange: (clientIds: string[]) => void;
  invalid?: boolean;
}) {
  const { t } = useI18n();
  const id = useId();
  const [q, setQ] = useState('');
  const clients = useBookClients(q.trim());
  const rows = clients.data?.clients ?? [];
  const toggle = (clientId: string, on: boolean) =>
    onChange(on ? [...chosen, clientId] : chosen.filter((other) => other !== clientId));
  return (
    <fieldset className="mb-3" aria-describedby={`${id}-help`}>
      <legend className="form-label fs-6 mb-1">{t('books.invite.clients')}</legend>
      <input
        type="search"
        className="form-control form-control-sm mb-2"
        aria-label={t('books.invite.search')}
        placeholder={t('books.invite.search')}
        value={q}
        onChange={(event) => setQ(event.target.value)}
      />
      <div
        className={`border rounded px-2 py-1 client-picker${invalid ? ' border-danger' : ''}`}
        style={{ maxHeight: '12rem', overflowY: 'auto' }}
      >
        {clients.isSuccess && rows.length === 0 && (
          <p className="small text-body-secondary mb-0 py-1">{t('books.invite.no-clients')}</p>
        )}
        {rows.map((client) => (
          <div key={client.id} className="form-check">
            <input
              className="form-check-input"
              type="checkbox"
              id={`${id}-${client.id}`}
              checked={chosen.includes(client.id)}
              onChange={(event) => toggle(client.id, event.target.checked)}
            />
            <label className="form-check-label text-break" htmlFor={`${id}-${client.id}`}>
              {clientName(client)}
            </label>
          </div>
        ))}
      </div>
      <div id={`${id}-help`} className={`form-text${invalid ? ' text-danger' : ''}`}>
        {invalid
          ? t('books.invite.choose-clients')
          : `${t('books.invite.clients-help')} ${t('books.invite.chosen', { count: chosen.length })}`}
      </div>
    </fieldset>
  );
}
