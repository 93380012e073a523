import type { Migration } from 'kysely/migration';
import * as accounts from './0001-accounts.ts';
import * as clients from './0002-clients.ts';
import * as settings from './0003-settings.ts';
import * as clientListIndexes from './0004-client-list-indexes.ts';
import * as ledger from './0005-ledger.ts';
import * as expiryIndexes from './0006-expiry-indexes.ts';
import * as idempotencyKeys from './0007-idempotency-keys.ts';
import * as ageing from './0015-ageing.ts';
import * as businessDetails from './0016-business-details.ts';
import * as accountControl from './0017-account-control.ts';
import * as accessTokens from './0018-access-tokens.ts';
import * as searchAndAgeingIndexes from './0019-search-and-ageing-indexes.ts';
import * as entriesByDay from './0021-entries-by-day.ts';
import * as accountLanguage from './0022-account-language.ts';
import * as clientIndexes from './0023-client-indexes.ts';
import * as paymentDetails from './0024-payment-details.ts';
import * as entryReferences from './0025-entry-references.ts';
import * as ledgerMonths from './0026-ledger-months.ts';
import * as foldedNameKeys from './0027-folded-name-keys.ts';
import * as clientLinks from './0028-client-links.ts';
import * as firstRunSetup from './0029-first-run-setup.ts';
import * as reminders from './0031-reminders.ts';
import * as bankImports from './0032-bank-imports.ts';
import * as bankLayouts from './0033-bank-layouts.ts';
import * as clientLinkMakers from './0034-client-link-makers.ts';
import * as bankLinesFreed from './0035-bank-lines-freed.ts';
import * as payerRuleOrigin from './0036-payer-rule-origin.ts';
import * as keptSums from './0038-kept-sums.ts';
import * as reminderNextRun from './0039-reminder-next-run.ts';
import * as businessClients from './0040-business-clients.ts';
import * as paymentMethods from './0041-payment-methods.ts';
import * as businessTaxId from './0042-business-tax-id.ts';
import * as paymentTargets from './0043-payment-targets.ts';
import * as stagedImports from './0044-staged-imports.ts';
import * as books from './0045-books.ts';
import * as closedPeriods from './0046-closed-periods.ts';
import * as correctionIndex from './0047-correction-index.ts';

/** The key is its permanent name. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-clients': clients,
  '0003-settings': settings,
  '0004-client-list-indexes': clientListIndexes,
  '0005-ledger': ledger,
  '0006-expiry-indexes': expiryIndexes,
  '0007-idempotency-keys': idempotencyKeys,
  '0015-ageing': ageing,
  '0016-business-details': businessDetails,
  '0017-account-control': accountControl,
  '0018-access-tokens': accessTokens,
  '0019-search-and-ageing-indexes': searchAndAgeingIndexes,
  '0021-entries-by-day': entriesByDay,
  '0022-account-language': accountLanguage,
  '0023-client-indexes': clientIndexes,
  '0024-payment-details': paymentDetails,
  '0025-entry-references': entryReferences,
  '0026-ledger-months': ledgerMonths,
  '0027-folded-name-keys': foldedNameKeys,
  '0028-client-links': clientLinks,
  '0029-first-run-setup': firstRunSetup,
  '0031-reminders': reminders,
  '0032-bank-imports': bankImports,
  '0033-bank-layouts': bankLayouts,
  '0034-client-link-makers': clientLinkMakers,
  '0035-bank-lines-freed': bankLinesFreed,
  '0036-payer-rule-origin': payerRuleOrigin,
  '0038-kept-sums': keptSums,
  '0039-reminder-next-run': reminderNextRun,
  '0040-business-clients': businessClients,
  '0041-payment-methods': paymentMethods,
  '0042-business-tax-id': businessTaxId,
  '0043-payment-targets': paymentTargets,
  '0044-staged-imports': stagedImports,
  '0045-books': books,
  '0046-closed-periods': closedPeriods,
  '0047-correction-index': correctionIndex,
};
