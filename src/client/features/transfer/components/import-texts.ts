import { useI18n } from '../../../i18n/use-i18n.ts';
import type { ImportError } from '../csv-import-state.ts';
import type { ImportField } from '../csv-mapping.ts';

/** The import's field names and its errors in the shown language. */
export function useImportTexts() {
  const { t, message } = useI18n();
  const fieldLabels: Record<ImportField, string> = {
    firstName: t('transfer.field.first-name'),
    lastName: t('transfer.field.last-name'),
    email: t('transfer.field.email'),
    phone: t('transfer.field.phone'),
    balance: t('transfer.field.balance'),
    currency: t('transfer.field.currency'),
    openingDate: t('transfer.field.opening-date'),
    openingDueDate: t('transfer.field.opening-due-date'),
    openingReference: t('transfer.field.opening-reference'),
    company: t('transfer.field.company'),
    addressLine1: t('transfer.field.address-line1'),
    addressLine2: t('transfer.field.address-line2'),
    city: t('transfer.field.city'),
    postcode: t('transfer.field.postcode'),
    country: t('transfer.field.country'),
    taxId: t('transfer.field.tax-id'),
    notes: t('transfer.field.notes'),
  };
  const errorText = (error: ImportError): string => {
    switch (error.kind) {
      case 'quote':
        return error.problem.line === null
          ? t('transfer.error.unclosed-quote')
          : t('transfer.error.unclosed-quote-at', { line: error.problem.line });
      case 'no-rows':
        return t('transfer.error.no-rows');
      case 'unreadable':
        return t('transfer.error.unreadable', { reason: error.reason });
      case 'check-failed':
        return t('transfer.error.check-failed');
      case 'import-failed':
        return t('transfer.error.import-failed');
      case 'server':
        return message(error.message);
    }
  };
  return { fieldLabels, errorText };
}
