import type { EntryKind } from '../../shared/schemas/ledger.ts';
import type { useI18n } from '../i18n/use-i18n.ts';

type Translate = ReturnType<typeof useI18n>['t'];

/**
 * What each kind of entry is called: on its own ("Payment", a ledger line) and inside a sentence
 * ("Void of payment of …"), which English writes in lower case and other languages may word
 * differently.
 */
export function entryKindTexts(
  t: Translate,
): Record<EntryKind, { label: string; inSentence: string }> {
  return {
    opening: {
      label: t('clients.kind.opening'),
      inSentence: t('clients.kind-in-sentence.opening'),
    },
    charge: { label: t('clients.kind.charge'), inSentence: t('clients.kind-in-sentence.charge') },
    payment: {
      label: t('clients.kind.payment'),
      inSentence: t('clients.kind-in-sentence.payment'),
    },
    credit: { label: t('clients.kind.credit'), inSentence: t('clients.kind-in-sentence.credit') },
    adjustment: {
      label: t('clients.kind.adjustment'),
      inSentence: t('clients.kind-in-sentence.adjustment'),
    },
    void: { label: t('clients.kind.void'), inSentence: t('clients.kind-in-sentence.void') },
  };
}
