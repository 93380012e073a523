import type { Confidence, MatchReason } from '../../../../shared/schemas/bank.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { ConfidenceFilter } from '../review.ts';
import type { BankField, DateOrder } from '../statement-file.ts';

/** The bank screens' words for the server's codes, each key written out for the build. */
export function useBankTexts() {
  const { t } = useI18n();
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
  };
  const dateOrder: Record<DateOrder, string> = {
    YMD: t('bank.date-order.ymd'),
    DMY: t('bank.date-order.dmy'),
    MDY: t('bank.date-order.mdy'),
  };
  return { reason, shortReason, confidence, filter, field, dateOrder };
}

/** Bootstrap's colour for a confidence. */
export const confidenceClass: Record<Confidence, string> = {
  high: 'text-bg-success',
  medium: 'text-bg-warning',
  low: 'text-bg-secondary',
};
