import { render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { noBusiness } from '../../../../shared/schemas/clients.ts';
import type { Statement } from '../../../../shared/schemas/statement.ts';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { Activity } from './statement-tables.tsx';

beforeAll(() => loadLocale('en'));
afterEach(() => i18n.activate('en'));

/** May's statement of a client charged 123.45 on 2 May and paid in full on 9 May. */
const settledInMay: Statement = {
  period: { from: '2025-05-01', to: '2025-05-31' },
  client: {
    id: 'c1',
    firstName: 'Nil',
    lastName: 'Before',
    email: 'nil@example.com',
    phone: '',
    currency: 'USD',
    ...noBusiness,
  },
  business: { name: '', address: '', paymentDetails: '', taxId: '' },
  date: '2025-05-31',
  number: 'ABC123-20250531',
  openingBalance: '0',
  lines: [
    {
      id: 1,
      date: '2025-05-02',
      dueDate: null,
      kind: 'charge',
      note: '',
      reference: '',
      method: null,
      amount: 12_345,
      description: 'Charge',
      balance: '12345',
    },
    {
      id: 2,
      date: '2025-05-09',
      dueDate: null,
      kind: 'payment',
      note: '',
      reference: '',
      method: 'cash',
      amount: -12_345,
      description: 'Payment',
      balance: '0',
    },
  ],
  closingBalance: '0',
  amountDue: { amount: '0', overdue: '0', payBy: null },
  openItems: [],
  ageing: {
    asOf: '2025-05-31',
    owed: '0',
    overdue: '0',
    buckets: { current: '0', days1to30: '0', days31to60: '0', days61to90: '0', over90: '0' },
  },
  emailConfigured: false,
};

describe('the statement’s activity', () => {
  it('writes every balance, a balance of nothing as 0.00', () => {
    render(<Activity statement={settledInMay} />);
    expect(screen.getByTestId('opening-balance')).toHaveTextContent(/^0\.00$/);
    expect(screen.getByTestId('closing-balance')).toHaveTextContent(/^0\.00$/);
    const payment = screen.getByRole('row', { name: /Payment \(cash\)/ });
    expect(payment).toHaveTextContent('(123.45)0.00');
  });
});
