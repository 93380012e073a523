import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

type SeedCurrency = 'USD' | 'CAD' | 'KRW' | 'MYR';

/** The day `daysBack` days before today (UTC), as YYYY-MM-DD. */
function daysAgo(daysBack: number): string {
  return new Date(Date.now() - daysBack * 86_400_000).toISOString().slice(0, 10);
}

async function addClient(
  page: Page,
  firstName: string,
  lastName: string,
  balance: number,
  currency: SeedCurrency,
  email = `${firstName}.${lastName}`
    .normalize('NFD')
    .toLowerCase()
    .replace(/[^a-z.]/g, '') + '@example.com',
): Promise<string> {
  const response = await page.request.post('/api/clients', {
    data: { firstName, lastName, email, phone: '0123456789', balance, currency },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function charge(page: Page, id: string, amount: number, daysBack: number) {
  const response = await page.request.post(`/api/clients/${id}/entries`, {
    data: { kind: 'charge', amount, date: daysAgo(daysBack) },
  });
  expect(response.status()).toBe(201);
}

/**
 * Twelve clients in four currencies: some owe (some of it overdue), two hold a credit, one is
 * settled, one has a long e-mail, and "Émilie" must sort among the E's. CAD: owed 3,160.00,
 * credits 150.00, so "Total Owed:" nets to 3,010.00.
 */
export async function seedTwelveClients(page: Page): Promise<void> {
  const ada = await addClient(page, 'Ada', 'Lovelace', 0, 'USD');
  await charge(page, ada, 120_000, 75);
  await charge(page, ada, 30_000, 5);
  await addClient(page, 'Bob', 'Marley', -2_500, 'USD');
  await addClient(page, 'Carla', 'Nguyen', 48_000, 'USD');
  const emilie = await addClient(page, 'Émilie', 'Dubois', 0, 'CAD');
  await charge(page, emilie, 216_000, 40);
  await addClient(page, 'Frank', 'Osei', 100_000, 'CAD');
  await addClient(page, 'Grace', 'Hopper', -15_000, 'CAD');
  await addClient(
    page,
    'Hiroshi',
    'Tanaka',
    0,
    'CAD',
    'hiroshi.tanaka.accounts.payable.department@very-long-company-name.example.com',
  );
  const minjun = await addClient(page, 'Minjun', 'Park', 0, 'KRW');
  await charge(page, minjun, 3_200_000, 100);
  await addClient(page, 'Seoyeon', 'Kim', 850_000, 'KRW');
  await addClient(page, 'Aisyah', 'Rahman', 45_000, 'MYR');
  await addClient(page, 'Wei Ming', 'Tan', 12_050, 'MYR');
  await addClient(page, 'Zainab', 'Hassan', 7_500, 'USD');
  const saved = await page.request.put('/api/settings', {
    data: {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [
        { currency: 'CAD', usdPerUnit: '0.72', date: daysAgo(3) },
        { currency: 'KRW', usdPerUnit: '0.00072', date: daysAgo(3) },
        { currency: 'MYR', usdPerUnit: '0.21', date: daysAgo(3) },
      ],
    },
  });
  expect(saved.status()).toBe(200);
}
