// Throwaway acceptance: statements written here, imported against a seeded book through the built server.
import iconv from 'iconv-lite';
import { joinOwner } from '../scripts/bench/seed.ts';

const base = process.argv[2] ?? 'http://127.0.0.1:3998';
const { cookie } = await joinOwner(base);
const headers = { 'content-type': 'application/json', cookie };
async function call(method: string, url: string, body?: unknown) {
  const r = await fetch(base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : null };
}
async function client(firstName: string, lastName: string, currency: string, charges: [number, string][]) {
  const r = await call('POST', '/api/clients', { firstName, lastName, email: `${Math.random().toString(36).slice(2)}@example.com`, phone: '+60 12-345 6789', currency, balance: 0 });
  if (r.status !== 201) throw new Error(JSON.stringify(r.json));
  for (const [amount, reference] of charges) {
    const c = await call('POST', `/api/clients/${r.json.id}/entries`, { kind: 'charge', amount, ...(reference && { reference }) });
    if (c.status !== 201) throw new Error(JSON.stringify(c.json));
  }
  return r.json.id as string;
}
// The book
const ids: Record<string, string> = {
  kim: await client('민준', '김', 'KRW', [[350000, 'HB-0311'], [120000, '']]),
  lee: await client('서연', '이', 'KRW', [[88000, '']]),
  hanbit: await client('상사', '한빛', 'KRW', [[1200000, 'TAX-2026-17']]),
  park: await client('지훈', '박', 'KRW', [[45000, '']]),
  siti: await client('Siti', 'Aziz', 'MYR', [[75_50, 'INV-1007']]),
  tan: await client('Wei Ming', 'Tan', 'MYR', [[1200_00, 'INV-1010'], [300_00, 'INV-1011']]),
  raj: await client('Rajesh', 'Kumar', 'MYR', [[99_90, '']]),
  zoe: await client('Zoé', 'Müller', 'USD', [[250_00, 'A-77']]),
  bob: await client('Robert', "O'Neil", 'USD', [[40_00, ''], [60_00, '']]),
  ana: await client('Ana', 'García-López', 'USD', [[1234_56, 'INV/2026/0042']]),
};
const who = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));

async function run(label: string, currency: string, file: Buffer, format: string, expected: (string | null)[], mapping?: object) {
  const body = { accountLabel: label, currency, format, file: file.toString('base64'), ...(mapping && { mapping }) };
  const p = await call('POST', '/api/bank/preview', body);
  if (p.status !== 200) { console.log(label, p.status, JSON.stringify(p.json)); return; }
  let right = 0, wrong = 0, none = 0;
  const rows = p.json.lines.map((l: any, i: number) => {
    const s = l.suggestions[0];
    const got = s ? who[s.clientId] ?? s.clientId : null;
    const exp = expected[i];
    if (got === exp) right++; else if (got === null) none++; else wrong++;
    return `  ${l.date} ${l.amount} ${l.description.slice(0, 40).padEnd(40)} → ${got ?? '-'} ${s ? `${s.reason}/${s.confidence}` : ''} (expected ${exp ?? '-'})`;
  });
  console.log(`${label} [${format}]: ${p.json.lines.length} lines, skipped ${p.json.skipped}; right ${right}, wrong ${wrong}, unmatched-but-expected ${none}`);
  console.log(rows.join('\n'));
  // confirm the expected ones, twice at once, then re-preview
  const lines = p.json.lines.map((l: any, i: number) => ({ l, e: expected[i] })).filter((x: any) => x.e)
    .map(({ l, e }: any) => { const { id, alreadyRecorded, suggestions, ...line } = l; return { ...line, allocations: [{ clientId: ids[e], amount: l.amount }] }; });
  const [a, b] = await Promise.all([1, 2].map(() => call('POST', '/api/bank/confirm', { accountLabel: label, currency, lines })));
  console.log(`  confirm twice at once: ${a.status} recorded ${a.json.recorded?.length} / ${b.status} recorded ${b.json.recorded?.length}, already ${b.json.alreadyRecorded?.length}`);
  const again = await call('POST', '/api/bank/preview', body);
  console.log(`  preview again: ${again.json.lines.filter((l: any) => l.alreadyRecorded).length} of ${again.json.lines.length} already recorded`);
  return (a.json.batchId ?? b.json.batchId) as string;
}

// 1. A Korean bank's CSV in CP949: title lines, YYYY.MM.DD HH:MM, 출금/입금 columns, 잔액, 적요+기재내용
const kr = [
  '한빛은행 거래내역조회', '계좌번호: 110-234-567890,,,,,', '',
  '거래일시,적요,기재내용,출금액,입금액,잔액',
  '2026.03.04 10:12,타행이체,김민준,0,"350,000","2,850,000"',
  '2026.03.05 09:00,CMS,통신요금,"55,000",0,"2,795,000"',
  '2026.03.06 14:30,인터넷,MINJUN KIM,0,"120,000","2,915,000"',
  '2026.03.07 11:00,타행이체,(주)한빛상사 TAX-2026-17,0,"1,200,000","4,115,000"',
  '2026.03.08 16:45,모바일,이서연,0,"88,000","4,203,000"',
  '2026.03.09 08:15,ATM,현금입금,0,"45,000","4,248,000"',
].join('\r\n');
await run('한빛 110-234', 'KRW', iconv.encode(kr, 'cp949'), 'csv', ['kim', 'kim', 'hanbit', 'lee', 'park'],
  { date: 0, description: 2, debit: 3, credit: 4, balance: 5, skipRows: 3, dateOrder: 'YMD', decimal: '.', encoding: 'euc-kr' });

// 2. A Malaysian bank's CSV: DD/MM/YYYY, one signed amount with DR/CR words, reference column
const my = [
  'Date,Transaction Description,Reference,Amount (MYR),Balance',
  '02/03/2026,DUITNOW TRF SITI BINTI AZIZ,INV-1007,75.50,1075.50',
  '03/03/2026,IBG CREDIT TAN WEI MING,PAYMENT INV1010,1200.00,2275.50',
  '04/03/2026,FPX PAYMENT TNB,,-230.10,2045.40',
  '05/03/2026,INSTANT TRANSFER RAJESH K,,99.90,2145.30',
  '06/03/2026,CASH DEPOSIT,,300.00,2445.30',
].join('\n');
await run('Maybank 4410', 'MYR', Buffer.from(my), 'csv', ['siti', 'tan', 'raj', null],
  { date: 0, description: 1, reference: 2, amount: 3, balance: 4, skipRows: 1, dateOrder: 'DMY', decimal: '.', encoding: 'utf-8' });

// 3. A US bank's OFX 1.02
const ofx = `OFXHEADER:100
DATA:OFXSGML
VERSION:102
SECURITY:NONE
ENCODING:USASCII
CHARSET:1252
COMPRESSION:NONE
OLDFILEUID:NONE
NEWFILEUID:NONE

<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260310120000<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>
<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>
<STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>021000021<ACCTID>9988776655<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST><DTSTART>20260301<DTEND>20260310
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260302120000[-5:EST]<TRNAMT>250.00<FITID>2026030201<NAME>ZOE MULLER<MEMO>Invoice A-77</STMTTRN>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260303<TRNAMT>-19.99<FITID>2026030301<NAME>SPOTIFY</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260304<TRNAMT>60.00<FITID>2026030401<NAME>ROBERT ONEIL</STMTTRN>
<STMTTRN><TRNTYPE>DEP<DTPOSTED>20260305<TRNAMT>1234.56<FITID>2026030501<NAME>GARCIA LOPEZ ANA<MEMO>INV 2026 0042</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260306<TRNAMT>10.00<FITID>2026030601<NAME>INTEREST</STMTTRN>
</BANKTRANLIST><LEDGERBAL><BALAMT>5000.00<DTASOF>20260310</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>
`;
const batch = await run('Chase checking', 'USD', Buffer.from(ofx), 'ofx', ['zoe', 'bob', 'ana', null]);
const undo = await (async () => { const r = await fetch(`${base}/api/bank/batches/${batch}/undo`, { method: 'POST', headers: { cookie } }); return { status: r.status, json: await r.json() }; })();
console.log(`undo: ${undo.status} ${JSON.stringify(undo.json)}`);
const after = await call('GET', `/api/clients/${ids.ana}/entries`);
console.log('ana entries after undo:', after.json.entries.map((e: any) => `${e.kind} ${e.amount} ${e.voided ?? ''} ${JSON.stringify(e.bank)}`).join(' | '));
