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

/** A page of 100 charges of $1.00, one a day from 2026-01-31, after 30 earlier ones. */
const entries: Entry[] = Array.from({ length: 100 }, (_, index) => ({
  id: index + 31,
  kind: 'charge',
  amount: 100,
  currency: 'USD',
  date: new Date(Date.UTC(2026, 0, 31 + index)).toISOString().slice(0, 10),
  dueDate: null,
  note: `Invoice ${index + 31}`,
  reference: '',
  voidOf: null,
  voidedBy: null,
  enteredBy: null,
  enteredAt: '2026-01-01T00:00:00.000Z',
  // The server's running balance, over the whole ledger (the 30 earlier charges included).
  runningBalance: String((index + 31) * 100),
  bank: null,
  method: null,
  pays: [],
  paidBy: [],
  open: 100,
  corrects: null,
  correctedBy: null,
}));

describe('a long ledger', () => {
  it('shows the page it has, oldest first with the server’s balance, and asks for earlier ones', () => {
    let asked = 0;
    render(<ClientLedger client={client} entries={entries} showEarlier={() => asked++} />);
    const rows = screen.getAllByTestId('ledger-entry');
    expect(rows).toHaveLength(100);
    expect(rows[0]).toHaveTextContent('Invoice 31');
    expect(rows[0]).toHaveTextContent('$31.00');
    expect(rows.at(-1)).toHaveTextContent('Invoice 130');
    expect(rows.at(-1)).toHaveTextContent('$130.00');

    fireEvent.click(screen.getByRole('button', { name: 'Show earlier entries' }));
    expect(asked).toBe(1);
  });

  it('offers nothing earlier on the first page of the ledger', () => {
    render(<ClientLedger client={client} entries={entries} />);
    expect(screen.queryByRole('button', { name: /^Show earlier/ })).toBeNull();
  });
});

describe('a payment from a bank statement', () => {
  it('names the account it came in on, then the bank’s reference and description', () => {
    const payment = (id: number, account: string | null): Entry => ({
      ...(entries[0] as Entry),
      id,
      kind: 'payment',
      amount: -100,
      note: 'IBG ZOE MULLER',
      reference: 'FT24061XYZ',
      runningBalance: account === null ? null : '0',
      bank: { account },
    });
    render(
      <ClientLedger client={client} entries={[payment(1, 'Maybank 4410'), payment(2, null)]} />,
    );
    const rows = screen.getAllByTestId('ledger-entry');
    expect(rows[0]).toHaveTextContent('Payment · Bank: Maybank 4410 · FT24061XYZ · IBG ZOE MULLER');
    expect(rows[1]).toHaveTextContent('Payment · From a bank import · FT24061XYZ');
  });
});

describe('a payment that names the charges it pays (issue 57)', () => {
  it('says what it pays, and shows those charges paid and by what', () => {
    const base = entries[0] as Entry;
    const charge = (id: number, reference: string, note: string): Entry => ({
      ...base,
      id,
      reference,
      note,
      open: 0,
      paidBy: [{ id: 9, date: '2026-04-03', amount: -6_500 }],
    });
    const payment: Entry = {
      ...base,
      id: 9,
      kind: 'payment',
      amount: -6_500,
      date: '2026-04-03',
      note: '',
      open: 0,
      pays: [
        { id: 1, date: '2026-03-01', amount: 4_000, label: 'INV-2210 / Design work' },
        { id: 2, date: '2026-03-20', amount: 2_500, label: '' },
      ],
    };
    const open: Entry = { ...base, id: 3, note: 'Engine plans', open: 100 };
    render(
      <ClientLedger
        client={client}
        entries={[open, charge(1, 'INV-2210', 'Design work'), charge(2, '', ''), payment]}
      />,
    );
    const rows = screen.getAllByTestId('ledger-entry');
    expect(rows[0]).not.toHaveTextContent('Paid');
    expect(rows[1]).toHaveTextContent('Paid');
    expect(rows[1]).toHaveTextContent('Paid by the payment of Apr 3, 2026');
    // A charge with neither reference nor note is named by its date and amount.
    expect(rows[3]).toHaveTextContent(
      'Pays INV-2210 / Design work; the charge of Mar 20, 2026 ($25.00)',
    );
  });
});

describe('a correction of a closed period’s entry (issue 59)', () => {
  it('names the entry it corrects, the corrected entry its correction, by date or by number', () => {
    const base = entries[0] as Entry;
    const payment: Entry = {
      ...base,
      id: 5,
      kind: 'payment',
      amount: -12_000,
      date: '2026-03-15',
      note: '',
      correctedBy: 8,
    };
    const correction: Entry = {
      ...base,
      id: 8,
      amount: 12_000,
      date: '2026-04-02',
      note: '',
      corrects: 5,
    };
    const ofAnotherPage: Entry = { ...correction, id: 9, corrects: 2 };
    render(<ClientLedger client={client} entries={[payment, correction, ofAnotherPage]} />);
    const rows = screen.getAllByTestId('ledger-entry');
    expect(rows[0]).toHaveTextContent('Corrected on Apr 2, 2026');
    expect(rows[1]).toHaveTextContent('Corrects the entry of Mar 15, 2026');
    expect(rows[2]).toHaveTextContent('Corrects entry #2');
    // Alone in the book (no session here): who entered them is not said.
    expect(screen.queryByTestId('entered-by')).toBeNull();
  });
});
