import type {
  Caution,
  Confidence,
  MatchReason,
  RuleLearned,
} from '../../../../shared/schemas/bank.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { ConfidenceFilter } from '../review.ts';
import type { BankField, DateOrder } from '../statement-file.ts';

/** The bank screens' words for the server's codes, each key written out for the build. */
export function useBankTexts() {
  const { t, format } = useI18n();
  /** Why a suggestion is not certain, naming the clients it is about. */
  const caution = (of: Caution, client: string, other: string) => {
    const reference = of.reference ?? '';
    switch (of.kind) {
      case 'payer':
        return of.reference === undefined
          ? t('bank.caution.payer', { other })
          : t('bank.caution.payer-reference', { reference, client, other });
      case 'reference':
        return t('bank.caution.reference', { reference, other });
      case 'rule':
        return t('bank.caution.rule', { other });
      case 'namesake':
        return t('bank.caution.namesake', { other });
      case 'amount':
        return of.reference === undefined
          ? t('bank.caution.amount')
          : t('bank.caution.amount-reference', { reference });
      case 'near':
        return t('bank.caution.near', { reference });
    }
  };
  /** Where a learned payer was learned: the import's day and account. */
  const learned = (of: RuleLearned) =>
    of.accountLabel === null
      ? t('bank.learned.earlier', { when: format.moment(of.at) })
      : t('bank.learned.import', { when: format.moment(of.at), account: of.accountLabel });
  const reason: Record<MatchReason, string> = {
    reference: t('bank.reason.reference'),
    rule: t('bank.reason.rule'),
    amount: t('bank.reason.amount'),
    balance: t('bank.reason.balance'),
    name: t('bank.reason.name'),
  };
  /** The reason in a word or two, beside a name in the client picker. */
  const shortReason: Record<MatchReason, string> = {
    reference: t('bank.reason-short.reference'),
    rule: t('bank.reason-short.rule'),
    amount: t('bank.reason-short.amount'),
    balance: t('bank.reason-short.balance'),
    name: t('bank.reason-short.name'),
  };
  const confidence: Record<Confidence, string> = {
    high: t('bank.confidence.high'),
    medium: t('bank.confidence.medium'),
    low: t('bank.confidence.low'),
  };
  const filter: Record<ConfidenceFilter, string> = {
    all: t('bank.filter.all'),
    high: t('bank.confidence.high'),
    medium: t('bank.confidence.medium'),
    low: t('bank.confidence.low'),
    unmatched: t('bank.filter.unmatched'),
  };
  const field: Record<BankField, string> = {
    date: t('bank.field.date'),
    description: t('bank.field.description'),
    amount: t('bank.field.amount'),
    credit: t('bank.field.credit'),
    debit: t('bank.field.debit'),
    reference: t('bank.field.reference'),
    balance: t('bank.field.balance'),
    counterparty: t('bank.field.counterparty'),
  };
  const dateOrder: Record<DateOrder, string> = {
    YMD: t('bank.date-order.ymd'),
    DMY: t('bank.date-order.dmy'),
    MDY: t('bank.date-order.mdy'),
  };
  return { reason, shortReason, caution, learned, confidence, filter, field, dateOrder };
}

/** Bootstrap's colour for a confidence. */
export const confidenceClass: Record<Confidence, string> = {
  high: 'text-bg-success',
  medium: 'text-bg-warning',
  low: 'text-bg-secondary',
};
