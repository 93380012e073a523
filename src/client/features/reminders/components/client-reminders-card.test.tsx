import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { noBusiness, type Client } from '../../../../shared/schemas/clients.ts';
import type { ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { loadLocale } from '../../../i18n/i18n.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { ClientRemindersCard } from './client-reminders-card.tsx';

beforeAll(() => loadLocale('en'));

const client: Client = {
  id: 'aminah',
  firstName: 'Aminah',
  lastName: 'Rahman',
  email: 'aminah@example.com',
  phone: '',
  balance: 120_000,
  currency: 'MYR',
  ...noBusiness,
  version: 1,
  oldestDueDate: '2026-11-01',
  createdAt: '2026-10-01T00:00:00.000Z',
  updatedAt: '2026-10-01T00:00:00.000Z',
};

const plan: ReminderPlan = {
  enabled: false,
  daysBefore: 3,
  onDueDate: true,
  overdueEveryDays: 7,
  overdueMax: 3,
  attachPdf: false,
  timeZone: 'Asia/Kuala_Lumpur',
};

/** The card over answers already in the cache, as the page has them once loaded. */
function card(enabled: boolean) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Infinity, retry: false } },
  });
  queryClient.setQueryData(queryKeys.settings.reminderPlan, { ...plan, enabled });
  queryClient.setQueryData(queryKeys.reminders.ofClient(client.id), { enabled: true });
  queryClient.setQueryData(queryKeys.reminders.preview, { today: '2026-12-07', reminders: [] });
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <ClientRemindersCard client={client} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the client’s reminders card', () => {
  it('while reminders are paused for the business, says nothing will be sent and shows the switch off', () => {
    card(false);
    const toggle = screen.getByRole('switch', { name: 'Send reminders to this client' });
    expect(toggle).not.toBeChecked();
    expect(toggle).toBeDisabled();
    expect(toggle).toHaveAccessibleDescription(
      'Nothing will be sent to this client: reminders are paused for your whole business. Turn reminders on in Settings',
    );
    expect(screen.getByRole('link', { name: 'Turn reminders on in Settings' })).toHaveAttribute(
      'href',
      '/setting',
    );
  });

  it('with the plan on, shows this client’s own choice and lets it change', () => {
    card(true);
    const toggle = screen.getByRole('switch', { name: 'Send reminders to this client' });
    expect(toggle).toBeChecked();
    expect(toggle).toBeEnabled();
    expect(screen.getByText(/^Your reminder plan is on\./)).toBeVisible();
    expect(screen.queryByText(/reminders are paused/)).toBeNull();
  });
});
