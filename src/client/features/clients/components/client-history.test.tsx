import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../../shared/schemas/events.ts';
import { ClientHistory } from './client-history.tsx';

const snapshot = (balance: number) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0018',
  balance,
  currency: 'USD' as const,
});

const event = (overrides: Partial<HistoryEntry>): HistoryEntry => ({
  id: 1,
  action: 'created',
  at: '2026-11-03T10:00:00.000Z',
  version: 1,
  before: null,
  after: null,
  entry: null,
  ...overrides,
});

describe('the history list', () => {
  it('says what each ledger change did to the balance', () => {
    render(
      <ClientHistory
        entries={[
          event({
            id: 2,
            action: 'entry_recorded',
            before: snapshot(50_000),
            after: snapshot(30_000),
            entry: {
              entryId: 7,
              kind: 'payment',
              amount: -20_000,
              currency: 'USD',
              date: '2026-11-03',
              note: 'ref 123',
              voidOf: null,
            },
          }),
          event({
            id: 3,
            action: 'entry_voided',
            before: snapshot(30_000),
            after: snapshot(50_000),
            entry: {
              entryId: 8,
              kind: 'void',
              amount: 20_000,
              currency: 'USD',
              date: '2026-11-04',
              note: 'Cheque bounced',
              voidOf: 7,
            },
          }),
        ]}
      />,
    );
    expect(
      screen.getByText('Payment of $200.00 (ref 123) recorded: balance $500.00 → $300.00'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Entry voided (Cheque bounced): balance $300.00 → $500.00'),
    ).toBeInTheDocument();
  });

  it('says a client came back from an export file, with the balance it came back with', () => {
    render(<ClientHistory entries={[event({ action: 'restored', after: snapshot(12_34) })]} />);
    expect(
      screen.getByText('Restored from an export file with a balance of $12.34'),
    ).toBeInTheDocument();
  });

  it('says where a statement was sent', () => {
    render(
      <ClientHistory
        entries={[event({ action: 'statement_sent', before: snapshot(500), after: snapshot(500) })]}
      />,
    );
    expect(screen.getByText('Statement sent to ada@example.com')).toBeInTheDocument();
  });

  it('shows a change it does not know plainly instead of failing', () => {
    render(<ClientHistory entries={[event({ action: 'reminder_sent' })]} />);
    expect(screen.getByText('Changed')).toBeInTheDocument();
  });
});
