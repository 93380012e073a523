// npm run bench:bank
//
// A bank statement of 5,000 incoming lines read and matched against 10,000 clients (2,000 of
// them with Korean names, two open items each, 2,000 learned payers), in this process: the parse, the matcher's maps and the
// lines' ids, without the database reads. Issue 45 asks for under 2 s; decision 030 keeps the
// figure. Asserts nothing.
import { performance } from 'node:perf_hooks';
import { buildMatcher, payerKey } from '../../src/server/modules/bank/bank-matching.ts';
import { bankLineId, parseStatement } from '../../src/server/modules/bank/bank-statement.ts';
import { bankMappingSchema } from '../../src/shared/schemas/bank.ts';

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
  { clientId: client.id, openAmount: 500 + index, reference: `INV-${index}` },
  { clientId: client.id, openAmount: 700 + index, reference: '' },
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
  const parsed = performance.now();
  const match = buildMatcher({ clients, openItems, rules });
  let matched = 0;
  for (const line of lines) {
    bankLineId('Main account', 'USD', line);
    if (match(line).length > 0) matched++;
  }
  const done = performance.now();
  process.stdout.write(
    `round ${round}: ${lines.length} lines, parse ${(parsed - started).toFixed(0)} ms, ` +
      `match and ids ${(done - parsed).toFixed(0)} ms, total ${(done - started).toFixed(0)} ms ` +
      `(${matched} matched)\n`,
  );
}
