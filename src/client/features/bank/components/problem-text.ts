import type { Currency } from '../../../../shared/money.ts';
import type { PreviewLine } from '../../../../shared/schemas/bank.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { ChoiceProblem } from '../review.ts';

/** What stops a line's payers, in words: no client, an amount that does not read, a wrong sum. */
export function useProblemText(currency: Currency) {
  const { t, format, message } = useI18n();
  const money = (minor: number) => format.money(minor, currency);
  return (line: PreviewLine, problem: ChoiceProblem) => {
    switch (problem.kind) {
      case 'no-client':
        return t('bank.problem.no-client');
      case 'bad-amount':
        return problem.error ? message(problem.error) : t('bank.problem.amount-above-zero');
      case 'sum':
        return problem.difference > 0
          ? t('bank.problem.sum-short', {
              total: money(problem.total),
              amount: money(line.amount),
              left: money(problem.difference),
            })
          : t('bank.problem.sum-over', {
              total: money(problem.total),
              amount: money(line.amount),
              over: money(-problem.difference),
            });
    }
  };
}
