import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewLine } from '../../../../shared/schemas/bank.ts';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { initialChoice } from '../review.ts';
import { ReviewTable } from './review-table.tsx';

beforeAll(async () => {
  await loadLocale('ms');
  await loadLocale('en');
});
afterEach(() => i18n.activate('en'));

const line = (id: string, suggestion: PreviewLine['suggestions'][number]): PreviewLine => ({
  id,
  line: 2,
  date: '2026-03-02',
  amount: 32_000,
  description: 'IBG AHMAD RAHMAN INV-3307',
  reference: '',
  balance: null,
  alreadyRecorded: false,
  suggestions: [suggestion],
});

const lines = [
  line('a', {
    clientId: 'lim',
    reason: 'reference',
    confidence: 'medium',
    caution: { kind: 'payer', reference: 'INV-3307', otherClientId: 'rahman' },
  }),
  line('b', {
    clientId: 'rahman',
    reason: 'rule',
    confidence: 'high',
    learned: {
      at: '2026-03-05T10:00:00.000Z',
      accountLabel: 'Maybank 4410',
      line: 7,
      from: 'manual',
    },
  }),
];
const clients = new Map([
  ['lim', { id: 'lim', firstName: 'Wei Ming', lastName: 'Lim' }],
  ['rahman', { id: 'rahman', firstName: 'Ahmad', lastName: 'Rahman' }],
]);

const table = () =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ReviewTable
        lines={lines}
        choices={new Map(lines.map((each) => [each.id, initialChoice(each)]))}
        currency="MYR"
        clients={clients}
        filter="all"
        problems={new Map()}
        onFilter={() => {}}
        onChoice={() => {}}
        onClientNamed={() => {}}
      />
    </QueryClientProvider>,
  );

describe('the review table’s reasons', () => {
  it('says what keeps a suggestion from high, and where a payer was learned', () => {
    table();
    expect(
      screen.getByText('Reference INV-3307 is Wei Ming Lim’s, the payer is Ahmad Rahman'),
    ).toBeVisible();
    expect(screen.getByText(/^Learned from the import of .+ \(Maybank 4410\)$/)).toBeVisible();
  });

  it('says it in the page’s language', () => {
    i18n.activate('ms');
    table();
    expect(
      screen.getByText('Rujukan INV-3307 milik Wei Ming Lim, pembayarnya Ahmad Rahman'),
    ).toBeVisible();
    expect(screen.getByText(/^Dipelajari daripada import .+ \(Maybank 4410\)$/)).toBeVisible();
  });
});
