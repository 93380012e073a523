import type { ReactNode } from 'react';
import { I18nProvider } from '@lingui/react';
import { render as renderInDom, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../../shared/money.ts';
import type { HistoryEntry } from '../../../../shared/schemas/events.ts';
import type { ReminderDetail } from '../../../../shared/schemas/reminders.ts';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { ClientHistory } from './client-history.tsx';

// The history's texts come with the client pages, in English here.
beforeAll(() => loadLocale('en'));
afterEach(() => i18n.activate('en'));

const render = (ui: ReactNode) => renderInDom(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);

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
  it('leaves out what the ledger shows: entries, voids, the balance set by hand', () => {
    const payment = {
      entryId: 7,
      kind: 'payment' as const,
      amount: -20_000,
      currency: 'USD' as const,
      date: '2026-11-03',
      note: 'ref 123',
      voidOf: null,
    };
    render(
      <ClientHistory
        entries={[
          event({ id: 5, action: 'edited', before: snapshot(30_000), after: snapshot(45_000) }),
          event({
            id: 4,
            action: 'balance_changed',
            before: snapshot(50_000),
            after: snapshot(30_000),
          }),
          event({
            id: 3,
            action: 'entry_voided',
            before: snapshot(30_000),
            after: snapshot(50_000),
            entry: { ...payment, entryId: 8, kind: 'void', amount: 20_000, voidOf: 7 },
          }),
          event({
            id: 2,
            action: 'entry_recorded',
            before: snapshot(50_000),
            after: snapshot(30_000),
            entry: payment,
          }),
        ]}
      />,
    );
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    expect(screen.getByText('Nothing yet.')).toBeInTheDocument();
    // The card says what it holds: the money is in the ledger above.
    expect(
      screen.getByText(/Payments, charges and credits are in the ledger above\.$/),
    ).toBeInTheDocument();
  });

  it("keeps edits of the client's details, without the balance the ledger already shows", () => {
    render(
      <ClientHistory
        entries={[
          event({
            id: 6,
            action: 'edited',
            before: snapshot(30_000),
            after: { ...snapshot(45_000), phone: '+44 20 7946 0999' },
          }),
          event({ id: 5, action: 'edited', before: snapshot(30_000), after: snapshot(30_000) }),
          event({ id: 1, action: 'created', after: snapshot(50_000) }),
        ]}
      />,
    );
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(
      screen.getByText('Edited: Phone “+44 20 7946 0018” → “+44 20 7946 0999”'),
    ).toBeInTheDocument();
    expect(screen.getByText('Saved without changes')).toBeInTheDocument();
    expect(screen.getByText('Added with a balance of $500.00')).toBeInTheDocument();
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

  it('speaks the shown language, with amounts written as it writes them', async () => {
    await loadLocale('ko');
    i18n.activate('ko');
    render(<ClientHistory entries={[event({ action: 'created', after: snapshot(-2_000) })]} />);
    const balance = formatMoney(-2_000, 'USD', 'ko-KR');
    expect(screen.getByText(`잔액 ${balance}(으)로 추가됨`)).toBeInTheDocument();
  });

  it('shows a change it does not know plainly instead of failing', () => {
    render(<ClientHistory entries={[event({ action: 'invoice_paid_by_card' })]} />);
    expect(screen.getByText('Changed')).toBeInTheDocument();
  });

  it('says which reminder went where, for which charges, and one that could not be sent', () => {
    const charges = [
      { entryId: 7, step: 'overdue-2', reference: 'INV-7' },
      { entryId: 9, step: 'due', reference: 'INV-9' },
    ];
    const reminder = (overrides: Partial<ReminderDetail>): ReminderDetail => ({
      step: 'overdue-2',
      charges,
      sentTo: 'ada@example.com',
      by: 'mail',
      ...overrides,
    });
    render(
      <ClientHistory
        overdueMax={3}
        entries={[
          event({ id: 4, action: 'reminders_changed' }),
          event({
            id: 3,
            action: 'reminder_failed',
            reminder: reminder({ step: 'before', charges: [charges[1]!], error: 'Mailbox full' }),
          }),
          event({ id: 2, action: 'reminder_sent', reminder: reminder({ by: 'hand' }) }),
          event({ id: 1, action: 'reminder_sent', reminder: reminder({}) }),
        ]}
      />,
    );
    expect(
      screen.getByText('Reminder sent to ada@example.com (overdue 2 of 3): INV-7, INV-9'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Reminder to ada@example.com (overdue 2 of 3) marked as sent by you: INV-7, INV-9',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Reminder to ada@example.com (before the due date) could not be sent: INV-9 (Mailbox full)',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Reminders turned on or off for this client')).toBeInTheDocument();
  });

  it('names a reminder in the shown language, its step without the plan when it is not known', async () => {
    await loadLocale('ms');
    i18n.activate('ms');
    render(
      <ClientHistory
        entries={[
          event({
            action: 'reminder_sent',
            reminder: {
              step: 'overdue-1',
              charges: [{ entryId: 7, step: 'overdue-1', reference: '' }],
              sentTo: 'ada@example.com',
              by: 'mail',
            },
          }),
        ]}
      />,
    );
    expect(
      screen.getByText(
        'Peringatan dihantar kepada ada@example.com (peringatan tertunggak ke-1): 1 caj',
      ),
    ).toBeInTheDocument();
  });

  it('names entries with their references, and an opening given new terms on the edit form', () => {
    const opening = {
      entryId: 1,
      kind: 'opening' as const,
      amount: 45_000,
      currency: 'USD' as const,
      date: '2026-08-30',
      note: '',
      voidOf: null,
      dueDate: '2026-09-30',
      reference: 'B/F 2025',
    };
    render(
      <ClientHistory
        entries={[
          event({
            id: 2,
            action: 'edited',
            before: snapshot(45_000),
            after: snapshot(45_000),
            entry: opening,
          }),
          event({ id: 1, action: 'created', after: snapshot(45_000), entry: opening }),
        ]}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(
      'Opening balance B/F 2025 set as of Aug 30, 2026, due Sep 30, 2026',
    );
    expect(items[1]).toHaveTextContent(
      'Added with a balance of $450.00 (Opening balance B/F 2025)',
    );
  });
});
