import { isCalendarDate } from '../../../shared/dates.ts';
import type { Currency } from '../../../shared/money.ts';
import type { BankLine } from '../../../shared/schemas/bank.ts';
import { otherCurrency, scopedBankId, transactionProblem } from './bank-ofx.ts';
import {
  bankLineLimit,
  parseBankAmount,
  fileProblem,
  tooManyLines,
  type ParsedStatement,
} from './bank-statement.ts';
import {
  all,
  at,
  attribute,
  decodeDeclared,
  readXml,
  refuseMoreThan,
  refuseUtf16,
  text,
  xmlEncoding,
} from './bank-xml.ts';

// ISO 20022 camt.053 (bank-to-customer statement), versions .001.02 to .001.13: the same
// elements where this reads them, but for the status (`BOOK`, or `<Cd>BOOK</Cd>` from .001.08)
// and the debtor's name (`Dbtr/Nm`, or `Dbtr/Pty/Nm` from .001.08).

const notCamt = () => fileProblem('This is not a camt.053 statement.');

/** `Dt` or `DtTm` (the bank's own day of a date-time is kept). */
function camtDate(node: unknown): string | null {
  const written = text(at(node, 'Dt')) || text(at(node, 'DtTm'));
  const date = written.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && isCalendarDate(date) ? date : null;
}

/** An `Amt` in the chosen currency, in minor units; null when it is not one. */
function camtAmount(node: unknown, currency: Currency): number | null {
  const written = text(node);
  if (!/^\d{1,18}(\.\d{1,5})?$/.test(written)) return null;
  return parseBankAmount(written, '.', currency);
}

const booked = (entry: unknown) =>
  (text(at(entry, 'Sts')) || text(at(entry, 'Sts', 'Cd'))).toUpperCase() === 'BOOK';

/** A transaction's amount: `Amt` (from .001.03) or `AmtDtls/TxAmt/Amt`. */
const transactionAmount = (transaction: unknown) =>
  at(transaction, 'Amt') ?? at(transaction, 'AmtDtls', 'TxAmt', 'Amt');

const debtorName = (transaction: unknown) =>
  text(at(transaction, 'RltdPties', 'Dbtr', 'Nm')) ||
  text(at(transaction, 'RltdPties', 'Dbtr', 'Pty', 'Nm'));

/** The debtor's name and the unstructured remittance text. */
function describe(transaction: unknown): string {
  const remittance = all(transaction, 'RmtInf', 'Ustrd').map(text);
  const written = [debtorName(transaction), ...remittance].filter(Boolean).join(' ');
  return written || text(at(transaction, 'AddtlTxInf'));
}

/** The creditor's reference the debtor gave, else the end-to-end id when it is one. */
function referenceOf(transaction: unknown): string {
  const creditor = all(transaction, 'RmtInf', 'Strd', 'CdtrRefInf', 'Ref').map(text).find(Boolean);
  if (creditor) return creditor;
  const endToEnd = text(at(transaction, 'Refs', 'EndToEndId'));
  return endToEnd.toUpperCase() === 'NOTPROVIDED' ? '' : endToEnd;
}

/**
 * The booked credit entries of every statement in the file. An entry that carries several
 * transactions, each with its amount in the chosen currency and adding up to the entry's, gives
 * one line per transaction; else one line for the entry.
 */
export function parseCamt053(bytes: Uint8Array, currency: Currency): ParsedStatement {
  refuseUtf16(bytes);
  const head = Buffer.from(bytes.subarray(0, 64 * 1024))
    .toString('latin1')
    .replace(/^\xEF\xBB\xBF/, '');
  if (!/^\s*<(\?xml|([\w.-]+:)?Document[\s>])/.test(head)) throw notCamt();
  const whole = decodeDeclared(bytes, xmlEncoding(head));
  refuseMoreThan(whole, 'Ntry', bankLineLimit, tooManyLines);
  const report = at(readXml(whole, notCamt), 'Document', 'BkToCstmrStmt');
  if (report === undefined) throw notCamt();
  const statements = all(report, 'Stmt');
  const count = statements.reduce<number>(
    (sum, statement) => sum + all(statement, 'Ntry').length,
    0,
  );
  if (count > bankLineLimit) throw tooManyLines();

  const lines: BankLine[] = [];
  let skipped = 0;
  let line = 0;
  for (const statement of statements) {
    const accountCurrency = text(at(statement, 'Acct', 'Ccy')).toUpperCase();
    if (accountCurrency !== '' && accountCurrency !== currency)
      throw otherCurrency(accountCurrency, currency);
    const account =
      text(at(statement, 'Acct', 'Id', 'IBAN')) || text(at(statement, 'Acct', 'Id', 'Othr', 'Id'));
    for (const entry of all(statement, 'Ntry')) {
      line++;
      if (text(at(entry, 'CdtDbtInd')).toUpperCase() !== 'CRDT' || !booked(entry)) {
        skipped++;
        continue;
      }
      const found = attribute(at(entry, 'Amt'), 'Ccy').toUpperCase();
      if (found !== currency)
        throw transactionProblem(line, 'the amount is in {found}, not in {currency}.', {
          found: found || '?',
          currency,
        });
      const amount = camtAmount(at(entry, 'Amt'), currency);
      if (amount === null) throw transactionProblem(line, 'this is not an amount.');
      if (amount === 0) {
        skipped++;
        continue;
      }
      const date = camtDate(at(entry, 'BookgDt')) ?? camtDate(at(entry, 'ValDt'));
      if (date === null) throw transactionProblem(line, 'this is not a date.');
      const entryRef = text(at(entry, 'AcctSvcrRef'));
      const transactions = all(entry, 'NtryDtls', 'TxDtls');
      const amounts = transactions.map((transaction) => {
        const node = transactionAmount(transaction);
        return attribute(node, 'Ccy').toUpperCase() === currency
          ? camtAmount(node, currency)
          : null;
      });
      const split =
        transactions.length > 1 &&
        amounts.every((part) => part !== null && part > 0) &&
        amounts.reduce<number>((sum, part) => sum + (part as number), 0) === amount;
      const additional = text(at(entry, 'AddtlNtryInf'));
      if (!split) {
        const description = [...new Set(transactions.map(describe).filter(Boolean))].join('; ');
        lines.push({
          line,
          date,
          amount,
          description: (description || additional).slice(0, 1000),
          reference: (transactions.map(referenceOf).find(Boolean) ?? '').slice(0, 200),
          balance: null,
          ...(entryRef !== '' && { bankId: scopedBankId('camt', account, entryRef) }),
        });
        continue;
      }
      transactions.forEach((transaction, index) => {
        if (index > 0) line++;
        const ownRef = text(at(transaction, 'Refs', 'AcctSvcrRef'));
        const bankRef = ownRef || (entryRef && `${entryRef}/${index + 1}`);
        lines.push({
          line,
          date,
          amount: amounts[index] as number,
          description: (describe(transaction) || additional).slice(0, 1000),
          reference: referenceOf(transaction).slice(0, 200),
          balance: null,
          ...(bankRef !== '' && { bankId: scopedBankId('camt', account, bankRef) }),
        });
      });
    }
  }
  if (lines.length > bankLineLimit) throw tooManyLines();
  return { lines, skipped };
}
