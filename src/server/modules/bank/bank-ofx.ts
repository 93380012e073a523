import { createHash } from 'node:crypto';
import { isCalendarDate } from '../../../shared/dates.ts';
import type { Currency } from '../../../shared/money.ts';
import { bankIdMaxLength, type BankLine } from '../../../shared/schemas/bank.ts';
import type { MessageValues } from '../../i18n.ts';
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
  decodeDeclared,
  readXml,
  refuseDeclarations,
  refuseMoreThan,
  refuseUtf16,
  text,
  tooDeep,
  xmlDepthLimit,
  xmlEncoding,
} from './bank-xml.ts';

// OFX and QFX (Quicken's OFX with a few INTU tags): version 1 is SGML whose elements are not
// closed, version 2 is XML. ofx-js was tried and not taken (docs/decisions/030).

const notOfx = () => fileProblem('This is not an OFX file.');

export const transactionProblem = (line: number, what: string, values?: MessageValues) =>
  fileProblem('Transaction {line}: {what}', {
    line,
    what: { text: what, ...(values && { values }) },
  });

/** The statement's currency must be the one the owner chose for the account. */
export const otherCurrency = (found: string, currency: Currency) =>
  fileProblem('The statement is in {found}, not in {currency}.', { found, currency });

const escaped = (value: string) =>
  value
    .replace(/&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[\da-fA-F]{1,6});)/g, '&amp;')
    .replace(/>/g, '&gt;');

/**
 * OFX 1's SGML as XML: an element followed by text is closed after it (its closing tag, when
 * the bank wrote one, is dropped); an aggregate is closed by its own closing tag, which also
 * closes whatever was left open inside it.
 */
export function sgmlToXml(sgml: string): string {
  const token = /<(\/?)([A-Za-z][\w.]{0,63})>([^<]*)/y;
  const out: string[] = [];
  const open: string[] = [];
  let leaf = '';
  let read = 0;
  let match: RegExpExecArray | null;
  while ((match = token.exec(sgml)) !== null) {
    read = token.lastIndex;
    const [, closing, name = '', rest = ''] = match;
    const value = rest.trim();
    if (closing) {
      const index = open.lastIndexOf(name);
      if (index === -1 && name !== leaf) throw notOfx();
      if (value !== '') throw notOfx();
      if (index !== -1) while (open.length > index) out.push(`</${open.pop() as string}>`);
      leaf = '';
    } else if (value !== '') {
      out.push(`<${name}>${escaped(value)}</${name}>`);
      leaf = name;
    } else {
      if (open.length >= xmlDepthLimit) throw tooDeep();
      open.push(name);
      out.push(`<${name}>`);
      leaf = '';
    }
  }
  if (read !== sgml.length || out.length === 0 || open.length > 0) throw notOfx();
  return out.join('');
}

/** The header's `KEY:VALUE` lines of OFX 1 (before `<OFX>`). */
function sgmlHeader(head: string): Record<string, string> {
  const header: Record<string, string> = {};
  for (const line of head.split(/\r?\n|\r/)) {
    const found = /^\s*([A-Z]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (found) header[found[1] as string] = found[2] as string;
  }
  return header;
}

/** DTPOSTED: `YYYYMMDD[HHMMSS[.XXX]][[gmt offset:tz name]]`; the bank's own day is kept. */
export function ofxDate(written: string): string | null {
  const found = /^(\d{4})(\d{2})(\d{2})(?:\d{6}(?:\.\d{1,3})?)?(?:\s*\[[^\]]{0,20}\])?$/.exec(
    written,
  );
  if (!found) return null;
  const date = `${found[1]}-${found[2]}-${found[3]}`;
  return isCalendarDate(date) ? date : null;
}

/** TRNAMT: signed, with `.` or (as the specification allows) `,` before the decimals. */
export function ofxAmount(written: string, currency: Currency): number | null {
  const found = /^([+-]?)(\d*)(?:([.,])(\d*))?$/.exec(written);
  if (!found || (found[2] === '' && !found[4])) return null;
  return parseBankAmount(written, found[3] === ',' ? ',' : '.', currency);
}

/** The bank's id with its account, short enough for a line (a hash of it when it is not). */
export function scopedBankId(kind: string, account: string, id: string): string {
  const scoped = `${kind}:${account}:${id}`;
  return scoped.length <= bankIdMaxLength
    ? scoped
    : `${kind}#${createHash('sha256').update(scoped).digest('base64url')}`;
}

const statementsOf = (ofx: unknown) => [
  ...all(ofx, 'BANKMSGSRSV1', 'STMTTRNRS', 'STMTRS').map((statement) => ({
    statement,
    account: [
      text(at(statement, 'BANKACCTFROM', 'BANKID')),
      text(at(statement, 'BANKACCTFROM', 'ACCTID')),
    ]
      .filter(Boolean)
      .join('/'),
  })),
  ...all(ofx, 'CREDITCARDMSGSRSV1', 'CCSTMTTRNRS', 'CCSTMTRS').map((statement) => ({
    statement,
    account: text(at(statement, 'CCACCTFROM', 'ACCTID')),
  })),
];

/** The incoming transactions (positive TRNAMT) of every bank and card statement in the file. */
export function parseOfx(bytes: Uint8Array, currency: Currency): ParsedStatement {
  refuseUtf16(bytes);
  const head = Buffer.from(bytes.subarray(0, 64 * 1024))
    .toString('latin1')
    .replace(/^\xEF\xBB\xBF/, '');
  const xmlHead = /^\s*<\?xml/.test(head);
  if (!xmlHead && !/^\s*(OFXHEADER\s*:|<OFX>)/.test(head)) throw notOfx();
  const header = xmlHead ? {} : sgmlHeader(head.slice(0, Math.max(0, head.indexOf('<'))));
  const charset = header.CHARSET && header.CHARSET !== 'NONE' ? header.CHARSET : '';
  const whole = decodeDeclared(
    bytes,
    xmlHead ? xmlEncoding(head) : charset || header.ENCODING || '',
  );
  const start = whole.indexOf('<OFX>');
  if (start === -1) throw notOfx();
  refuseDeclarations(whole);
  refuseMoreThan(whole, 'STMTTRN', bankLineLimit, tooManyLines);
  const parsed = readXml(xmlHead ? whole : sgmlToXml(whole.slice(start).trim()), notOfx);
  const ofx = at(parsed, 'OFX');
  if (ofx === undefined) throw notOfx();
  const statements = statementsOf(ofx);
  if (statements.length === 0) throw fileProblem('This OFX file has no bank or card statement.');
  const count = statements.reduce(
    (sum, { statement }) => sum + all(statement, 'BANKTRANLIST', 'STMTTRN').length,
    0,
  );
  if (count > bankLineLimit) throw tooManyLines();

  const lines: BankLine[] = [];
  let skipped = 0;
  let line = 0;
  for (const { statement, account } of statements) {
    const curdef = text(at(statement, 'CURDEF')).toUpperCase();
    if (curdef === '') throw fileProblem('The file does not say which currency the account is in.');
    if (curdef !== currency) throw otherCurrency(curdef, currency);
    for (const transaction of all(statement, 'BANKTRANLIST', 'STMTTRN')) {
      line++;
      const amount = ofxAmount(text(at(transaction, 'TRNAMT')), currency);
      if (amount === null) throw transactionProblem(line, 'this is not an amount.');
      if (amount <= 0) {
        skipped++;
        continue;
      }
      const other = text(at(transaction, 'CURRENCY', 'CURSYM')).toUpperCase();
      if (other !== '' && other !== currency)
        throw transactionProblem(line, 'the amount is in {found}, not in {currency}.', {
          found: other,
          currency,
        });
      const date = ofxDate(text(at(transaction, 'DTPOSTED')));
      if (date === null) throw transactionProblem(line, 'this is not a date.');
      const name = text(at(transaction, 'NAME')) || text(at(transaction, 'PAYEE', 'NAME'));
      const memo = text(at(transaction, 'MEMO'));
      const fitid = text(at(transaction, 'FITID'));
      lines.push({
        line,
        date,
        amount,
        description: (memo === '' || memo === name ? name : `${name} ${memo}`)
          .trim()
          .slice(0, 1000),
        reference: (text(at(transaction, 'REFNUM')) || text(at(transaction, 'CHECKNUM'))).slice(
          0,
          200,
        ),
        balance: null,
        ...(fitid !== '' && { bankId: scopedBankId('ofx', account, fitid) }),
      });
    }
  }
  return { lines, skipped };
}
