import type { Currency } from '../../../shared/money.ts';
import {
  bankFileMaxBytes,
  type BankFormat,
  type BankMapping,
} from '../../../shared/schemas/bank.ts';
import { fieldError } from '../../errors.ts';
import { parseCamt053 } from './bank-camt.ts';
import { parseOfx } from './bank-ofx.ts';
import { parseXlsx } from './bank-xlsx.ts';
import {
  fileProblem,
  numberTwins,
  parseStatement,
  type ParsedStatement,
} from './bank-statement.ts';

async function parsed(
  bytes: Uint8Array,
  format: BankFormat,
  mapping: BankMapping | undefined,
  currency: Currency,
): Promise<ParsedStatement> {
  // The body's base64 limit lets through up to two bytes more.
  if (bytes.length > bankFileMaxBytes) throw fileProblem('The file is too large.');
  if (format === 'ofx') return parseOfx(bytes, currency);
  if (format === 'camt053') return parseCamt053(bytes, currency);
  // The body's schema asks for it already.
  if (mapping === undefined) throw fieldError('mapping', "Choose the CSV file's columns.");
  if (format === 'xlsx') return parseXlsx(bytes, mapping, currency);
  return parseStatement(bytes, mapping, currency);
}

/**
 * A statement's incoming lines, read in the format the owner chose, its identical lines
 * numbered (`occurrence`); `twins` counts the lines identical to another.
 */
export async function readStatement(
  bytes: Uint8Array,
  format: BankFormat,
  mapping: BankMapping | undefined,
  currency: Currency,
): Promise<ParsedStatement & { twins: number }> {
  const statement = await parsed(bytes, format, mapping, currency);
  return { ...statement, twins: numberTwins(statement.lines) };
}
