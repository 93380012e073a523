import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isCurrency } from '../../../../shared/money.ts';
import { clientSorts } from '../../../../shared/client-list.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { ClientListParams } from '../../../lib/query-keys.ts';

const searchDelayMs = 250;

/** The dashboard's view lives in the address bar, so it can be bookmarked and survives a reload. */
export function useListParams(): [
  ClientListParams,
  (changes: Partial<Record<keyof ClientListParams, string | undefined>>) => void,
] {
  const [searchParams, setSearchParams] = useSearchParams();
  const sort = searchParams.get('sort');
  const dir = searchParams.get('dir');
  const currency = searchParams.get('currency');
  const params: ClientListParams = {
    q: searchParams.get('q') ?? undefined,
    sort: clientSorts.find((candidate) => candidate === sort),
    dir: dir === 'desc' ? 'desc' : undefined,
    currency: isCurrency(currency) ? currency : undefined,
    owes: searchParams.get('owes') === 'true' ? 'true' : undefined,
    overdue: searchParams.get('overdue') === 'true' ? 'true' : undefined,
  };
  const update = (changes: Partial<Record<keyof ClientListParams, string | undefined>>) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  return [params, update];
}

/**
 * A filter's value as the user just set it. The address bar changes in a transition, so a
 * control bound to it alone would spring back until the new list arrives (a checkbox ticked
 * under load looked unticked); this shows the choice at once and follows the address bar after.
 */
export function useChosen<T>(fromAddress: T): [T, (value: T) => void] {
  const [chosen, setChosen] = useState(fromAddress);
  const [seen, setSeen] = useState(fromAddress);
  if (seen !== fromAddress) {
    setSeen(fromAddress);
    setChosen(fromAddress);
  }
  return [chosen, setChosen];
}

/** A yes/no filter of the list, kept in the address bar. */
export function FilterCheckbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  const [shown, show] = useChosen(checked);
  return (
    <div className="form-check mb-0">
      <input
        id={id}
        type="checkbox"
        className="form-check-input"
        checked={shown}
        onChange={(event) => {
          show(event.target.checked);
          onChange(event.target.checked);
        }}
      />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
    </div>
  );
}

/** The list's search, sent a moment after the typing stops. */
export function SearchBox({
  value,
  onSearch,
}: {
  value: string;
  onSearch: (text: string) => void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  useEffect(() => {
    latest.current = onSearch;
  });
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => latest.current(text.trim()), searchDelayMs);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <input
      type="search"
      className="form-control"
      placeholder={t('dashboard.search.placeholder')}
      aria-label={t('dashboard.search.label')}
      value={text}
      onChange={(event) => setText(event.target.value)}
    />
  );
}
