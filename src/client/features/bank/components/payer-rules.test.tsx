import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BankRule } from '../../../../shared/schemas/bank.ts';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { PayerRulesCard } from './payer-rules.tsx';

beforeAll(() => loadLocale('en'));
afterEach(() => i18n.activate('en'));

const rules: BankRule[] = [
  {
    id: 'a',
    payerKey: 'cash deposit',
    client: null,
    updatedAt: '2026-03-07T10:00:00.000Z',
    learned: { at: '2026-03-07T10:00:00.000Z', accountLabel: null, line: null, from: null },
  },
  {
    id: 'b',
    payerKey: 'hanbit trading co',
    client: { id: 'c1', firstName: '상사', lastName: '한빛' },
    updatedAt: '2026-03-05T10:00:00.000Z',
    learned: {
      at: '2026-03-05T10:00:00.000Z',
      accountLabel: 'Shinhan 110',
      line: 4,
      from: 'manual',
    },
  },
  {
    id: 'c',
    payerKey: 'ibg zoe muller',
    client: { id: 'c2', firstName: 'Zoé', lastName: 'Müller' },
    updatedAt: '2026-03-02T10:00:00.000Z',
    learned: { at: '2026-03-02T10:00:00.000Z', accountLabel: null, line: null, from: null },
  },
];

describe('the learned payers', () => {
  it('lists each payer with the client it names, and forgets one from the keyboard', async () => {
    const forgotten: string[] = [];
    render(
      <PayerRulesCard
        rules={rules}
        forget={async (rule) => {
          forgotten.push(rule.id);
          return true;
        }}
      />,
    );
    const items = screen.getAllByTestId('payer-rule');
    expect(items[0]).toHaveTextContent('Matches nobody: confirmed for two different clients');
    expect(items[1]).toHaveTextContent('hanbit trading co');
    expect(items[1]).toHaveTextContent('Pays for 한빛상사');
    // Where it was learned: the import's account and line.
    expect(items[1]).toHaveTextContent(/learned from the import of .+ \(Shinhan 110\), line 4/);
    expect(items[2]).toHaveTextContent('Pays for Zoé Müller');
    const button = screen.getByRole('button', { name: 'Forget the payer “hanbit trading co”' });
    button.focus();
    fireEvent.click(button);
    await waitFor(() => expect(forgotten).toEqual(['b']));
    // The keyboard goes on from the next payer's button.
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Forget the payer “ibg zoe muller”' }),
      ).toHaveFocus(),
    );
  });

  it('says when nothing is learned yet, in the page’s language', async () => {
    await loadLocale('ko');
    i18n.activate('ko');
    render(<PayerRulesCard rules={[]} forget={async () => true} />);
    expect(screen.getByRole('heading', { name: '학습된 입금자' })).toBeVisible();
    expect(screen.getByText(/아직 학습된 입금자가 없습니다/)).toBeVisible();
  });
});
