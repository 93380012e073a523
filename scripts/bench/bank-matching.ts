// npm run bench:bank
//
// A bank statement of 5,000 incoming lines read and matched against 10,000 clients (2,000 of
// them with Korean names, two open items each, 2,000 learned payers), in this process: the parse, the matcher's maps and the
// lines' ids, without the database reads. Issue 45 asks for under 2 s; decision 030 keeps the
// figure. Then the same 5,000 payments as OFX 1 (SGML), OFX 2 (XML) and camt.053, read only;
// then as a Korean bank's XLSX export, read only (issue 57 asks for under 2 s), and a zip bomb
// of 256 MiB of shared strings refused (under a second). Each line pays one charge whole: the
// share of lines whose first suggestion names exactly that charge is printed too (issue 57).
// Asserts nothing.
import { performance } from 'node:perf_hooks';
import { buildMatcher, payerKey } from '../../src/server/modules/bank/bank-matching.ts';
import { parseCamt053 } from '../../src/server/modules/bank/bank-camt.ts';
import { parseOfx } from '../../src/server/modules/bank/bank-ofx.ts';
import {
  bankLineId,
  numberTwins,
  parseStatement,
} from '../../src/server/modules/bank/bank-statement.ts';
import { checkXlsx, parseXlsx } from '../../src/server/modules/bank/bank-xlsx.ts';
import { bankMappingSchema } from '../../src/shared/schemas/bank.ts';
import { workbookParts, xlsxFile, zip, type SheetCell } from '../../tests/xlsx.ts';

const firstNames = ['Minjun', 'Seoyeon', 'Ah Kow', 'Zoé', 'Siti', 'John', 'Mei Ling', 'Arjun'];
const lastNames = ['Kim', 'Lee', 'Tan', 'Müller', 'Rahman', 'Smith', 'Wong', 'Nair'];
const pick = (list: string[], index: number) => list[index % list.length] as string;

const familyNames = ['김', '이', '박', '최', '정', '남궁'];
/** A two-syllable given name in Hangul, a different one for most clients. */
const givenName = (index: number) =>
  String.fromCharCode(0xac00 + ((index * 37) % 11_172), 0xac00 + ((index * 101) % 11_172));
// Every fifth client has a Korean name, matched in Hangul and romanised too.
const clients = Array.from({ length: 10_000 }, (_, index) => ({
  id: `client-${index}`,
  firstName: index % 5 === 0 ? givenName(index) : `${pick(firstNames, index)}${index}`,
  lastName: index % 5 === 0 ? pick(familyNames, index) : pick(lastNames, index * 7),
  balance: 1_000 + index * 13,
}));
const openItems = clients.flatMap((client, index) => [
  { clientId: client.id, openAmount: 500 + index, reference: `INV-${index}`, id: index * 2 + 1 },
  { clientId: client.id, openAmount: 700 + index, reference: '', id: index * 2 + 2 },
]);
const rules = clients
  .slice(0, 2_000)
  .map((client) => ({ payerKey: payerKey(`PAYER ${client.firstName} CO`), clientId: client.id }));
const rows = Array.from(
  { length: 5_000 },
  (_, index) =>
    `2026-03-${String(1 + (index % 28)).padStart(2, '0')},"IBG TRANSFER ${pick(firstNames, index)}${index * 2} ${pick(lastNames, index * 3)} INV-${index * 2}",${(500 + index * 2) / 100},${index}.00`,
);
const file = new TextEncoder().encode(`date,description,amount,balance\n${rows.join('\n')}\n`);
const mapping = bankMappingSchema.parse({
  date: 0,
  description: 1,
  amount: 2,
  balance: 3,
  dateOrder: 'YMD',
  decimal: '.',
});

for (let round = 1; round <= 3; round++) {
  const started = performance.now();
  const { lines } = parseStatement(file, mapping, 'USD');
  // As the preview does: identical lines numbered, each its own payment.
  numberTwins(lines);
  const parsed = performance.now();
  const match = buildMatcher({ clients, openItems, rules });
  let matched = 0;
  let named = 0;
  for (const [index, line] of lines.entries()) {
    bankLineId('Main account', 'USD', line);
    const suggestions = match(line);
    if (suggestions.length > 0) matched++;
    // Line i pays client 2i's charge INV-2i, entry 4i + 1.
    const pays = suggestions[0]?.pays?.map((charge) => charge.entryId) ?? [];
    if (pays.length === 1 && pays[0] === index * 4 + 1) named++;
  }
  const done = performance.now();
  process.stdout.write(
    `round ${round}: ${lines.length} lines, parse ${(parsed - started).toFixed(0)} ms, ` +
      `match and ids ${(done - parsed).toFixed(0)} ms, total ${(done - started).toFixed(0)} ms ` +
      `(${matched} matched, charges named right on ${named})\n`,
  );
}

const payments = Array.from({ length: 5_000 }, (_, index) => ({
  day: String(1 + (index % 28)).padStart(2, '0'),
  name: `${pick(firstNames, index)}${index * 2} ${pick(lastNames, index * 3)}`,
  amount: ((500 + index * 2) / 100).toFixed(2),
  id: `2026030${index}`,
}));
const ofxTransactions = payments
  .map(
    (payment) =>
      `<STMTTRN>\n<TRNTYPE>CREDIT\n<DTPOSTED>202603${payment.day}120000[-5:EST]\n<TRNAMT>${payment.amount}\n<FITID>${payment.id}\n<NAME>${payment.name}\n<MEMO>INV-${payment.id}\n</STMTTRN>`,
  )
  .join('\n');
const ofxBody = `<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>2</BANKACCTFROM><BANKTRANLIST>\n${ofxTransactions}\n</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
const closed = ofxBody.replace(/<(\w+)>([^<\n]+)/g, '<$1>$2</$1>');
const camtEntries = payments
  .map(
    (payment) =>
      `<Ntry><Amt Ccy="USD">${payment.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-03-${payment.day}</Dt></BookgDt><AcctSvcrRef>${payment.id}</AcctSvcrRef><NtryDtls><TxDtls><Amt Ccy="USD">${payment.amount}</Amt><RltdPties><Dbtr><Pty><Nm>${payment.name}</Nm></Pty></Dbtr></RltdPties><RmtInf><Ustrd>INV-${payment.id}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
  )
  .join('\n');
const files = {
  'OFX 1 (SGML)': {
    read: parseOfx,
    text: `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n${ofxBody}`,
  },
  'OFX 2 (XML)': { read: parseOfx, text: `<?xml version="1.0" encoding="UTF-8"?>\n${closed}` },
  'camt.053': {
    read: parseCamt053,
    text: `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>USD</Ccy></Acct>${camtEntries}</Stmt></BkToCstmrStmt></Document>`,
  },
};
for (const [name, { read, text }] of Object.entries(files)) {
  const bytes = new TextEncoder().encode(text);
  for (let round = 1; round <= 3; round++) {
    const started = performance.now();
    const { lines } = read(bytes, 'USD');
    process.stdout.write(
      `${name} round ${round}: ${lines.length} lines from ${(bytes.length / 1024 / 1024).toFixed(1)} MiB, ` +
        `read in ${(performance.now() - started).toFixed(0)} ms\n`,
    );
  }
}

const sheet: SheetCell[][] = [['거래일시', '적요', '내용', '보낸분', '출금액', '입금액', '잔액']];
for (const [index, payment] of payments.entries())
  sheet.push([
    { date: `2026-03-${payment.day}` },
    '타행입금',
    `INV-${payment.id}`,
    payment.name,
    0,
    Number(payment.amount),
    index,
  ]);
const workbook = xlsxFile(sheet);
const sheetMapping = bankMappingSchema.parse({
  date: 0,
  description: 2,
  counterparty: 3,
  debit: 4,
  credit: 5,
  balance: 6,
  dateOrder: 'YMD',
  decimal: '.',
});
for (let round = 1; round <= 3; round++) {
  const started = performance.now();
  const { lines } = await parseXlsx(workbook, sheetMapping, 'USD');
  process.stdout.write(
    `XLSX round ${round}: ${lines.length} lines from ${(workbook.length / 1024).toFixed(0)} KiB, ` +
      `read in ${(performance.now() - started).toFixed(0)} ms\n`,
  );
}
const bomb = zip(
  Object.entries({
    ...workbookParts([['a']]),
    'xl/sharedStrings.xml': Buffer.alloc(256 * 1024 * 1024, '<si><t>a</t></si>'),
  }).map(([name, data]) => ({ name, data: Buffer.from(data) })),
);
for (let round = 1; round <= 3; round++) {
  const started = performance.now();
  let refused = '';
  try {
    checkXlsx(bomb);
  } catch (error) {
    refused = (error as Error).message;
  }
  process.stdout.write(
    `XLSX zip bomb (256 MiB in ${(bomb.length / 1024).toFixed(0)} KiB) round ${round}: ` +
      `"${refused}" in ${(performance.now() - started).toFixed(0)} ms\n`,
  );
}
