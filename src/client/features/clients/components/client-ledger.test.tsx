import type { ReactNode } from 'react';
import { I18nProvider } from '@lingui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render as renderInDom, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../../shared/schemas/clients.ts';
import type { Entry } from '../../../../shared/schemas/ledger.ts';
import { FlashProvider } from '../../../components/flash.tsx';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { ClientLedger } from './client-ledger.tsx';

beforeAll(() => loadLocale('en'));

const render = (ui: ReactNode) =>
  renderInDom(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <FlashProvider>{ui}</FlashProvider>
      </QueryClientProvider>
    </I18nProvider>,
  );

const client = { id: 'c1', currency: 'USD', balance: 0 } as Client;

/** 130 charges of $1.00, one a day from 2026-01-01. */
const entries: Entry[] = Array.from({ length: 130 }, (_, index) => ({
  id: index + 1,
  kind: 'charge',
  amount: 100,
  currency: 'USD',
  date: new Date(Date.UTC(2026, 0, 1 + index)).toISOString().slice(0, 10),
  dueDate: null,
  note: `Invoice ${index + 1}`,
  reference: '',
  voidOf: null,
  voidedBy: null,
  enteredBy: null,
  enteredAt: '2026-01-01T00:00:00.000Z',
  runningBalance: '0',
}));

describe('a long ledger', () => {
  it('shows its newest hundred rows, oldest of them first, and earlier ones on asking', () => {
    render(<ClientLedger client={client} entries={entries} />);
    let rows = screen.getAllByTestId('ledger-entry');
    expect(rows).toHaveLength(100);
    expect(rows[0]).toHaveTextContent('Invoice 31');
    expect(rows[0]).toHaveTextContent('$31.00');
    expect(rows.at(-1)).toHaveTextContent('Invoice 130');
    expect(rows.at(-1)).toHaveTextContent('$130.00');

    fireEvent.click(screen.getByRole('button', { name: 'Show earlier entries (30 more)' }));
    rows = screen.getAllByTestId('ledger-entry');
    expect(rows).toHaveLength(130);
    expect(rows[0]).toHaveTextContent('Invoice 1');
    expect(screen.queryByRole('button', { name: /^Show earlier/ })).toBeNull();
  });
});
