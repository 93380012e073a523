import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ageing } from '../../../../shared/schemas/clients.ts';
import type { Locale } from '../../../../shared/locales.ts';
import { changeLocale, i18n } from '../../../i18n/i18n.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { AgeingSummary } from './ageing-summary.tsx';

afterEach(() => i18n.activate('en'));

const ageing: Ageing = {
  asOf: '2026-12-07',
  currencies: [
    {
      currency: 'USD',
      owed: '5500',
      buckets: {
        current: '2500',
        days1to30: '0',
        days31to60: '3000',
        days61to90: '0',
        over90: '0',
      },
    },
  ],
};

/** The summary with its answer already fetched, as the dashboard shows it. */
function showAgeing() {
  const queries = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  queries.setQueryData(queryKeys.overview.ageing, ageing);
  render(
    <QueryClientProvider client={queries}>
      <AgeingSummary filtered={false} />
    </QueryClientProvider>,
  );
}

describe('the dashboard’s ageing', () => {
  it.each<[Locale, string]>([
    ['en', 'Dec 7, 2026'],
    ['ko', '2026. 12. 7.'],
    ['ms', '7 Dis 2026'],
  ])('writes its day in %s as the app writes days: %s', async (locale, day) => {
    await changeLocale(locale, { remember: false });
    showAgeing();
    // The caption is written twice, over the phone's layout and the wider screen's.
    expect(screen.getAllByText((text) => text.includes(day))).toHaveLength(2);
    expect(document.body.textContent).not.toContain('2026-12-07');
  });
});
