import type { Entry, RecordedKind } from '../../../../shared/schemas/ledger.ts';
import { entryKindTexts } from '../../../components/entry-kind-texts.ts';
import type { useI18n } from '../../../i18n/use-i18n.ts';

type Translate = ReturnType<typeof useI18n>['t'];

/** What each kind of entry is called on its button, its form and its confirmation. */
export function entryTexts(t: Translate): Record<RecordedKind, { action: string; done: string }> {
  return {
    payment: {
      action: t('clients.entry.payment.action'),
      done: t('clients.entry.payment.done'),
    },
    charge: { action: t('clients.entry.charge.action'), done: t('clients.entry.charge.done') },
    credit: { action: t('clients.entry.credit.action'), done: t('clients.entry.credit.done') },
  };
}

/** The form's title and confirmation: its kind's, or a correction's naming what it corrects. */
export function entryFormTexts(
  { t, format }: Pick<ReturnType<typeof useI18n>, 't' | 'format'>,
  kind: RecordedKind,
  corrects: Entry | undefined,
): { action: string; done: string } {
  if (!corrects) return entryTexts(t)[kind];
  return {
    action: t('clients.correction.title', {
      kind: entryKindTexts(t)[corrects.kind].inSentence,
      date: format.day(corrects.date),
    }),
    done: t('clients.correction.done'),
  };
}
