import { inflateRawSync } from 'node:zlib';
import { readSheet } from 'read-excel-file/node';
import type { Currency } from '../../../shared/money.ts';
import type { BankMapping } from '../../../shared/schemas/bank.ts';
import { sheetCellText, type SheetValue } from '../../../shared/sheet-cells.ts';
import {
  fileProblem,
  linesOfRows,
  rowsAfterSkipped,
  type ParsedStatement,
  type StatementRow,
} from './bank-statement.ts';

// An Excel statement (XLSX, the usual export of Korean internet banking) read by read-excel-file
// once its zip has been checked here: the reader unzips every XML part in memory, so a zip bomb,
// sizes that lie or a sheet of millions of cells would hold the worker for seconds and take its
// memory. What is checked, in one pass over the central directory and the parts it will read:
// decision 040.

/** Parts the reader unzips: its XML, its relations. */
const readPart = (name: string) => name.endsWith('.xml') || name.endsWith('.rels');
/** A 20,000-line statement's sheet and strings are under 10 MiB of XML. */
const xmlLimitBytes = 24 * 1024 * 1024;
const entryLimit = 1_000;
const rowLimit = 50_000;
const cellLimit = 1_000_000;

const notXlsx = () => fileProblem('The file is not an Excel workbook (.xlsx) that can be read.');
const tooLarge = () => fileProblem('The file is too large.');

interface Entry {
  name: string;
  flags: number;
  method: number;
  packed: number;
  size: number;
  offset: number;
}

/** The central directory's entries, checked against the local headers they point at. */
function entriesOf(bytes: Buffer): Entry[] {
  // The end record is in the last 64 KiB and 22 bytes (its comment is at most 65,535 bytes).
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--)
    if (bytes.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  if (end < 0) throw notXlsx();
  const count = bytes.readUInt16LE(end + 10);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryStart = bytes.readUInt32LE(end + 16);
  // Zip64 (0xffff entries, offsets of 0xffffffff) is for archives far beyond a statement.
  if (count > entryLimit) throw tooLarge();
  if (directoryStart + directorySize > end) throw notXlsx();
  const entries: Entry[] = [];
  let at = directoryStart;
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== 0x02014b50) throw notXlsx();
    const nameLength = bytes.readUInt16LE(at + 28);
    const entry: Entry = {
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      packed: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      offset: bytes.readUInt32LE(at + 42),
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
    };
    if (entry.flags & 1 || (entry.method !== 0 && entry.method !== 8)) throw notXlsx();
    entries.push(entry);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  // The reader walks the local headers one after the other: they must be exactly the
  // directory's entries, end to end, so that no part is read that was not checked here.
  const sorted = [...entries].sort((a, b) => a.offset - b.offset);
  let next = 0;
  for (const entry of sorted) {
    if (entry.offset !== next || entry.offset + 30 > directoryStart) throw notXlsx();
    if (bytes.readUInt32LE(entry.offset) !== 0x04034b50) throw notXlsx();
    const data =
      entry.offset +
      30 +
      bytes.readUInt16LE(entry.offset + 26) +
      bytes.readUInt16LE(entry.offset + 28);
    const described = (entry.flags & 8) !== 0;
    if (
      !described &&
      (bytes.readUInt32LE(entry.offset + 18) !== entry.packed ||
        bytes.readUInt32LE(entry.offset + 22) !== entry.size)
    )
      throw notXlsx();
    next = data + entry.packed;
    // A data descriptor after the data: 12 bytes, or 16 with its signature.
    if (described) next += bytes.readUInt32LE(next) === 0x08074b50 ? 16 : 12;
  }
  if (next !== directoryStart) throw notXlsx();
  return entries;
}

/** How often `token` occurs in `text`, stopping once past `limit`. */
function occurrences(text: Buffer, token: string, limit: number): number {
  // The token as bytes once: searched for as a string, a million calls took 0.9 s on 17 MB.
  const bytes = Buffer.from(token, 'latin1');
  let count = 0;
  for (let at = text.indexOf(bytes); at >= 0; at = text.indexOf(bytes, at + bytes.length))
    if (++count > limit) break;
  return count;
}

/**
 * Refuses, before the reader sees it, a workbook no statement is: more than `entryLimit` parts,
 * XML parts of more than `xmlLimitBytes` together, a part that inflates to more or less than its
 * size says (a zip bomb stops at the size said), a sheet of more than `rowLimit` rows or
 * `cellLimit` cells, shared strings of more than `cellLimit` strings.
 */
export function checkXlsx(bytes: Buffer): void {
  // An Excel 97-2003 workbook (a compound file): no reader kept up on the registry reads it.
  if (
    bytes.length >= 8 &&
    bytes.readUInt32BE(0) === 0xd0cf11e0 &&
    bytes.readUInt32BE(4) === 0xa1b11ae1
  )
    throw fileProblem('This is an old Excel file (.xls): save it as .xlsx or CSV.');
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== 0x04034b50) throw notXlsx();
  const parts = entriesOf(bytes).filter((entry) => readPart(entry.name));
  let total = 0;
  for (const part of parts) {
    total += part.size;
    if (total > xmlLimitBytes) throw tooLarge();
  }
  for (const part of parts) {
    const start =
      part.offset +
      30 +
      bytes.readUInt16LE(part.offset + 26) +
      bytes.readUInt16LE(part.offset + 28);
    const packed = bytes.subarray(start, start + part.packed);
    let text: Buffer;
    if (part.method === 0) text = packed;
    else
      try {
        text = inflateRawSync(packed, { maxOutputLength: Math.max(1, part.size) });
      } catch (error) {
        throw (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLarge() : notXlsx();
      }
    if (text.length !== part.size) throw notXlsx();
    if (/worksheets\/[^/]+\.xml$/.test(part.name)) {
      if (occurrences(text, '<row', rowLimit) > rowLimit) throw tooLarge();
      if (occurrences(text, '<c ', cellLimit) > cellLimit) throw tooLarge();
    }
    if (part.name.endsWith('sharedStrings.xml') && occurrences(text, '<si', cellLimit) > cellLimit)
      throw tooLarge();
  }
}

/** The first sheet's rows as text, each with its row number. */
async function sheetRows(bytes: Buffer, mapping: BankMapping): Promise<StatementRow[]> {
  checkXlsx(bytes);
  let rows;
  try {
    rows = await readSheet(bytes);
  } catch {
    throw notXlsx();
  }
  return rows.map((row, index) => ({
    // Its types say `typeof Date` where the reader gives a Date.
    cells: row.map((value) => sheetCellText(value as SheetValue, mapping)),
    line: index + 1,
  }));
}

/** The incoming payments of an XLSX statement's first sheet, through the column mapping. */
export async function parseXlsx(
  bytes: Uint8Array,
  mapping: BankMapping,
  currency: Currency,
): Promise<ParsedStatement> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rows = rowsAfterSkipped(await sheetRows(buffer, mapping), mapping.skipRows);
  return linesOfRows(rows, mapping, currency);
}
