import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { RemindersPausedNotice } from './reminders-paused-notice.tsx';

beforeAll(async () => {
  await loadLocale('ko');
  await loadLocale('en');
});
afterEach(() => i18n.activate('en'));

const plan: ReminderPlan = {
  enabled: false,
  daysBefore: 3,
  onDueDate: true,
  overdueEveryDays: 7,
  overdueMax: 3,
  attachPdf: false,
  timeZone: 'Asia/Kuala_Lumpur',
};

/** The notice over the plan already in the cache, as the dashboard has it once loaded. */
function notice({ enabled, overdueClients }: { enabled: boolean; overdueClients: number }) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Infinity, retry: false } },
  });
  queryClient.setQueryData(queryKeys.settings.reminderPlan, { ...plan, enabled });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <RemindersPausedNotice overdueClients={overdueClients} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the dashboard’s notice of paused reminders', () => {
  it('says how many clients are overdue while nothing is sent, with the way to Settings', () => {
    notice({ enabled: false, overdueClients: 2 });
    expect(screen.getByTestId('reminders-paused')).toHaveTextContent(
      '2 clients are overdue, and reminders are paused: none will be sent. Turn reminders on in Settings',
    );
    expect(screen.getByRole('link', { name: 'Turn reminders on in Settings' })).toHaveAttribute(
      'href',
      '/setting',
    );
  });

  it('reads in the page’s language', () => {
    i18n.activate('ko');
    notice({ enabled: false, overdueClients: 1 });
    expect(screen.getByTestId('reminders-paused')).toHaveTextContent(
      '연체된 고객이 1명 있지만 알림이 일시 중지되어 있어 아무것도 보내지 않습니다. 설정에서 알림 켜기',
    );
  });

  it('says nothing when no client is overdue or reminders are on', () => {
    notice({ enabled: false, overdueClients: 0 });
    notice({ enabled: true, overdueClients: 3 });
    expect(screen.queryByTestId('reminders-paused')).toBeNull();
  });
});
