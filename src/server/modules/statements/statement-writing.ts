import { writtenDay } from '../../../shared/dates.ts';
import { intlLocales, type Locale } from '../../../shared/locales.ts';
import {
  formatBalanceFigure,
  formatFigure,
  formatMoney,
  type Currency,
} from '../../../shared/money.ts';
import {
  entryKindLabels,
  paymentMethodInSentence,
  type EntryKind,
  type PaymentMethod,
} from '../../../shared/schemas/ledger.ts';
import { kindWithMethod, lineDetails } from '../../../shared/schemas/statement.ts';
import { translate } from '../../i18n.ts';

/**
 * How a statement writes its figures, money, days and entries in a language: one set for the
 * PDF and the client link's page, so the two read alike.
 */
export function statementWriting(currency: Currency, locale: Locale) {
  const intl = intlLocales[locale];
  const kind = (of: EntryKind) => translate(locale, entryKindLabels[of]);
  return {
    intl,
    figure: (minor: number | string | bigint) => formatFigure(BigInt(minor), currency, intl),
    balance: (minor: number | string | bigint) =>
      formatBalanceFigure(BigInt(minor), currency, intl),
    money: (minor: number | string | bigint) => formatMoney(BigInt(minor), currency, intl),
    day: (iso: string) => writtenDay(iso, intl),
    kind,
    describe: (line: {
      kind: EntryKind;
      note: string;
      reference: string;
      method?: PaymentMethod | null;
    }) => {
      const what = kindWithMethod(
        line,
        kind,
        (method) => translate(locale, paymentMethodInSentence[method]),
        (values) => translate(locale, '{kind} ({method})', values),
      );
      const details = lineDetails(line);
      return details ? `${what}: ${details}` : what;
    },
  };
}
