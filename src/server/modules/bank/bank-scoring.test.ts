import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { testDialect } from '../../../../tests/db.ts';
import { xlsxFile, type SheetCell } from '../../../../tests/xlsx.ts';
import type { Currency } from '../../../shared/money.ts';
import type {
  BankConfirmed,
  BankMapping,
  BankPreview,
  BankRuleList,
  PreviewLine,
} from '../../../shared/schemas/bank.ts';
import type { Client } from '../../../shared/schemas/clients.ts';

// A scorer of the matcher through the real API (issue 53): a book of clients with Korean,
// Malaysian and English names, companies and namesakes, their open charges, and two statements
// per account in several banks' layouts, with the traps an owner's statements hold. Statement A
// is previewed, confirmed as the owner would (each line to the client who really paid), then
// statement B is previewed with what A taught. Every line knows who really paid; the scorer
// counts the high-confidence suggestions naming someone else (an owner trusts those without
// reading them), the lines lost, and how often the first suggestion is right.

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

/** mulberry32: the same book and statements on every run and both databases. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;
  const shuffle = <T>(list: readonly T[]): T[] => {
    const copy = [...list];
    for (let index = copy.length - 1; index > 0; index--) {
      const other = int(index + 1);
      [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
    }
    return copy;
  };
  return { next, int, pick, shuffle };
}
type Random = ReturnType<typeof random>;

// Names as the book keeps them, and as the bank writes the payer.
interface Person {
  firstName: string;
  lastName: string;
  /** How this payer's bank writes them. */
  payer: string[];
  company?: true;
}

const koreanFamilies = [
  ['김', 'KIM'],
  ['이', 'LEE'],
  ['박', 'PARK'],
  ['최', 'CHOI'],
  ['강', 'KANG'],
  ['윤', 'YOON'],
  ['장', 'JANG'],
  ['한', 'HAN'],
  ['임', 'LIM'],
  ['조', 'CHO'],
] as const;
const koreanGiven = [
  ['민준', 'MINJUN'],
  ['서연', 'SEOYEON'],
  ['도윤', 'DOYUN'],
  ['하준', 'HAJUN'],
  ['예준', 'YEJUN'],
  ['하은', 'HAEUN'],
  ['지호', 'JIHO'],
  ['수아', 'SUA'],
  ['은서', 'EUNSEO'],
  ['지민', 'JIMIN'],
  ['현우', 'HYEONU'],
  ['유진', 'YUJIN'],
] as const;
const koreanCompanies = [
  ['한빛', '상사'],
  ['대성', '물산'],
  ['미래', '건설'],
  ['서울', '식품'],
  ['동해', '수산'],
  ['새롬', '전자'],
] as const;
const malaysianFirst = [
  ['Ahmad Faiz', 'Rahman'],
  ['Nurul Aisyah', 'Hassan'],
  ['Muhammad Hafiz', 'Ismail'],
  ['Siti Nora', 'Abdullah'],
  ['Wei Ming', 'Lim'],
  ['Ah Kow', 'Tan'],
  ['Mei Ling', 'Wong'],
  ['Siew Lan', 'Chong'],
  ['Kok Leong', 'Ng'],
  ['Rajesh', 'Kumar'],
  ['Priya', 'Devi'],
  ['Sarah', 'Thompson'],
  ['David', 'Miller'],
  ['Aminah', 'Yusof'],
  ['Jia Hui', 'Teo'],
] as const;
const malaysianCompanies = [
  'Syarikat Maju Jaya',
  'Kedai Runcit Aman',
  'Bengkel Sentosa',
  'Perniagaan Cahaya',
  'Teknik Jaya Enterprise',
];

// Issue 57: how people write what the book holds, for the varied statements (seeds 3 and 4).
// Given names as their bearers spell them besides the Revised Romanization.
const koreanGivenSpelt = [
  ['민석', 'MINSEOK', 'MINSUK'],
  ['민준', 'MINJUN', 'MINJOON'],
  ['현우', 'HYEONU', 'HYUNWOO'],
  ['지훈', 'JIHUN', 'JIHOON'],
  ['유진', 'YUJIN', 'YOOJIN'],
  ['성민', 'SEONGMIN', 'SUNGMIN'],
  ['영수', 'YEONGSU', 'YOUNGSOO'],
  ['수빈', 'SUBIN', 'SOOBIN'],
  ['서연', 'SEOYEON', 'SEO YEON'],
  ['지민', 'JIMIN', 'JI-MIN'],
  ['하은', 'HAEUN', 'HA EUN'],
  ['도윤', 'DOYUN', 'DOYOON'],
] as const;
/** A Korean company's legal form, written before or after its name, in full or abbreviated. */
const koreanForms = [
  (name: string) => `주식회사 ${name}`,
  (name: string) => `${name} 주식회사`,
  (name: string) => `(주)${name}`,
  (name: string) => `${name}(주)`,
  (name: string) => `㈜${name}`,
  (name: string) => `주식회사${name}`,
  (name: string) => `유한회사 ${name}`,
  (name: string) => `${name}(유)`,
  (name: string) => `${name} 대표 김철수`,
  (name: string) => `대표 이영희 ${name}`,
];

function koreanPeople(rng: Random, count: number, varied = false): Person[] {
  const people: Person[] = [];
  const seen = new Set<string>();
  while (people.length < count) {
    const [family, familyLatin] = rng.pick(koreanFamilies);
    const [given, givenLatin, spelt] = varied
      ? rng.pick(koreanGivenSpelt)
      : [...rng.pick(koreanGiven), undefined];
    if (seen.has(family + given)) continue;
    seen.add(family + given);
    people.push({
      firstName: given,
      lastName: family,
      payer: [
        `${family}${given}`,
        `${familyLatin} ${givenLatin}`,
        `${givenLatin} ${familyLatin}`,
        ...(spelt ? [`${spelt} ${familyLatin}`, `${familyLatin} ${spelt}`] : []),
      ],
    });
  }
  for (const [index, [first, last]] of koreanCompanies.entries()) {
    const name = `${first}${last}`;
    // Varied: the book keeps some with their legal form, in either name field.
    const kept = !varied
      ? { firstName: first, lastName: last }
      : index % 3 === 0
        ? { firstName: '주식회사', lastName: name }
        : index % 3 === 1
          ? { firstName: name, lastName: '(주)' }
          : { firstName: first, lastName: last };
    people.push({
      ...kept,
      payer: varied
        ? rng
            .shuffle(koreanForms)
            .slice(0, 3)
            .map((form) => form(name))
        : [`(주)${first}${last}`, `${first}${last}`],
      company: true,
    });
  }
  return people;
}

/** Malay given names and the patronymic word their bearers write: BIN, BINTI, or short. */
const patronymics: Record<string, readonly string[]> = {
  'Ahmad Faiz': ['BIN', 'B.', 'B'],
  'Muhammad Hafiz': ['BIN', 'B.'],
  'Nurul Aisyah': ['BINTI', 'BT', 'BTE'],
  'Siti Nora': ['BINTI', 'BT.'],
  Aminah: ['BINTI', 'BT'],
};
const malaysianForms = ['SDN BHD', 'S/B', 'SDN. BHD.', 'SB', 'BHD'];

function malaysianPeople(rng: Random, count: number, varied = false): Person[] {
  const people: Person[] = [];
  const seen = new Set<string>();
  const firsts = malaysianFirst.map(([first]) => first);
  const lasts = malaysianFirst.map(([, last]) => last);
  while (people.length < count) {
    const first = rng.pick(firsts);
    const last = rng.pick(lasts);
    if (seen.has(first + last)) continue;
    seen.add(first + last);
    const upper = `${first} ${last}`.toUpperCase();
    const chinese = ['Lim', 'Tan', 'Wong', 'Chong', 'Ng', 'Teo'].includes(last);
    const written = chinese ? [`${last} ${first}`.toUpperCase(), upper] : [upper];
    if (varied) {
      for (const word of patronymics[first] ?? [])
        written.push(`${first} ${word} ${last}`.toUpperCase());
      // A given name of two words is how many write themselves: "WEI MING", "AHMAD FAIZ".
      if (first.includes(' ')) written.push(first.toUpperCase());
    }
    people.push({ firstName: first, lastName: last, payer: written });
  }
  for (const [index, company] of malaysianCompanies.entries()) {
    const [first, ...rest] = company.split(' ');
    const upper = company.toUpperCase();
    people.push({
      firstName: first!,
      // Varied: some kept with their legal form.
      lastName: varied && index % 2 === 0 ? `${rest.join(' ')} Sdn Bhd` : rest.join(' '),
      payer: varied
        ? rng
            .shuffle(malaysianForms)
            .slice(0, 3)
            .map((form) => `${upper} ${form}`)
        : [`${upper} SDN BHD`, upper],
      company: true,
    });
  }
  return people;
}

interface BookClient extends Person {
  id: string;
  /** Charges in the order they are paid: statement A pays the first, B the second. */
  charges: { amount: number; reference: string }[];
  /** The opening balance, an open item too (0: none). */
  opening: number;
}

interface Account {
  currency: Currency;
  clients: BookClient[];
  /** A namesake pair: two clients of the same name. */
  namesakes: [BookClient, BookClient];
  /** Clients who paid both charges in statement A, in one transfer. */
  paidAhead: Set<BookClient>;
}

/** A line of a statement, with who really paid it (null: nobody of the book). */
interface Line {
  day: number;
  amount: number;
  payer: string;
  text: string;
  reference: string;
  truth: string | null;
  kind: string;
  /** The references of the charges it pays whole (issue 57); left out: none whole. */
  pays?: string[];
}

const addClient = async (cookie: string, person: Person, currency: Currency, balance: number) =>
  (
    await injectOk(
      testApp.app,
      'POST',
      '/api/clients',
      cookie,
      buildClient({ firstName: person.firstName, lastName: person.lastName, currency, balance }),
    )
  ).json<Client>();

async function buildAccount(
  cookie: string,
  rng: Random,
  currency: Currency,
  people: Person[],
): Promise<Account> {
  const krw = currency === 'KRW';
  // A few round amounts many clients owe, so that an amount alone is often ambiguous.
  const common = krw ? [50_000, 100_000, 150_000, 300_000] : [10_000, 25_000, 50_000];
  const amount = () =>
    rng.next() < 0.3
      ? rng.pick(common)
      : krw
        ? (10 + rng.int(890)) * 1000
        : (100 + rng.int(5900)) * 50;
  const twin = people[rng.int(people.length - 6)] as Person;
  const all = [...people, { ...twin }];
  // References numbered in a shuffled order, so that a neighbouring number is another client's.
  const numbers = rng.shuffle(Array.from({ length: all.length * 2 }, (_, index) => index));
  const reference = (n: number) => (krw ? `청구-2026-${100 + n}` : `INV-${3300 + n}`);
  const clients: BookClient[] = [];
  for (const [index, person] of all.entries()) {
    const opening = rng.next() < 0.2 ? amount() : 0;
    const client = await addClient(cookie, person, currency, opening);
    const charges = [0, 1].map((which) => ({
      amount: amount(),
      reference: reference(numbers[index * 2 + which] as number),
    }));
    for (const charge of charges)
      await injectOk(testApp.app, 'POST', `/api/clients/${client.id}/entries`, cookie, {
        kind: 'charge',
        amount: charge.amount,
        date: '2026-02-01',
        reference: charge.reference,
      });
    clients.push({ ...person, id: client.id, charges, opening });
  }
  const namesakes: [BookClient, BookClient] = [
    clients.find(
      (client) =>
        client.firstName === twin.firstName &&
        client.lastName === twin.lastName &&
        client !== clients.at(-1),
    )!,
    clients.at(-1)!,
  ];
  return { currency, clients, namesakes, paidAhead: new Set() };
}

/** One character of a reference changed so that it names another client's charge, if any does. */
function typoOf(account: Account, client: BookClient, which: number) {
  const own = client.charges[which]!.reference;
  for (const other of account.clients) {
    if (other.firstName === client.firstName && other.lastName === client.lastName) continue;
    const charge = other.charges[which]!;
    const differs = [...own].filter((char, index) => charge.reference[index] !== char).length;
    if (charge.reference.length === own.length && differs === 1) return { other, charge };
  }
  return undefined;
}

const thirdParties = {
  KRW: ['(주)대한물류', '주식회사 가나다', '홍길동'],
  MYR: ['ACME HOLDINGS', 'PERTUBUHAN KEBAJIKAN', 'JOHN SMITH'],
};

/**
 * Statement A (which 0) or B (which 1) of an account: most clients pay their charge, some by
 * name, some by reference, some in part; then the traps.
 */
/** A charge's reference as people write it in a memo (issue 57): in full, without its prefix, spelled out. */
function writtenReference(rng: Random, reference: string): string {
  const number = reference.replace(/^(청구-|INV-)/, '');
  const forms = reference.startsWith('청구')
    ? [reference, number, `청구서 ${number}`, reference.replace(/-/g, ' ')]
    : [reference, `INVOICE ${number}`, `INV ${number}`, `INV NO. ${number}`, number];
  return rng.pick(forms);
}

/** Two references in one memo, the second shortened to what differs: "INV-3310/3342", "청구-2026-114,131". */
function bothReferences(first: string, second: string, krw: boolean): string {
  let common = 0;
  while (common < first.length && first[common] === second[common]) common++;
  // Back to the start of the number that differs.
  while (common > 0 && /\d/.test(second[common - 1] ?? '')) common--;
  return `${first}${krw ? ',' : '/'}${second.slice(common)}`;
}

function statementLines(rng: Random, account: Account, which: 0 | 1, varied = false): Line[] {
  const lines: Line[] = [];
  const { clients, namesakes } = account;
  // A third party pays for the same client in A and B, so that B tests what A taught.
  const beneficiary = clients.find((client) => !client.company && !namesakes.includes(client))!;
  const used = new Set<BookClient>([...namesakes, beneficiary]);
  const day = () => 1 + rng.int(27);
  const someone = () => {
    for (;;) {
      const client = rng.pick(clients);
      if (!used.has(client) && !account.paidAhead.has(client)) {
        used.add(client);
        return client;
      }
    }
  };
  const generic = account.currency === 'KRW' ? '인터넷뱅킹' : 'IBG TRANSFER';
  const payerOf = (client: BookClient) => rng.pick(client.payer);
  // Traps, each drawn from clients not paying otherwise in this statement.
  for (let count = 0; count < 3; count++) {
    const client = someone();
    const typo = typoOf(account, client, which);
    if (!typo) continue;
    const charge = client.charges[which]!;
    // The payer is the client, the reference a typo naming another client's charge.
    lines.push({
      day: day(),
      amount: charge.amount,
      payer: payerOf(client),
      text: typo.charge.reference,
      reference: '',
      truth: client.id,
      kind: 'typo-with-name',
      pays: [charge.reference],
    });
  }
  for (let count = 0; count < 2; count++) {
    const client = someone();
    const typo = typoOf(account, client, which);
    if (!typo || typo.charge.amount === client.charges[which]!.amount) continue;
    lines.push({
      day: day(),
      amount: client.charges[which]!.amount,
      payer: generic,
      text: '',
      reference: typo.charge.reference,
      truth: client.id,
      kind: 'typo-alone',
      pays: [client.charges[which]!.reference],
    });
  }
  // A parent (another client) pays a child's charge, with the child's reference.
  const parents: BookClient[] = [];
  for (let count = 0; count < 2; count++) {
    const parent = someone();
    const child = someone();
    parents.push(parent);
    lines.push({
      day: day(),
      amount: child.charges[which]!.amount,
      payer: payerOf(parent),
      text: child.charges[which]!.reference,
      reference: '',
      truth: child.id,
      kind: 'parent-pays',
      pays: [child.charges[which]!.reference],
    });
  }
  // A company of the book pays for one of its people, no reference: picked by hand.
  const company = clients.find((client) => client.company && !used.has(client))!;
  used.add(company);
  // One whose charge is no amount the company owes itself, its opening balance included (else
  // nobody could tell).
  let employee = someone();
  while (
    [...company.charges.map((charge) => charge.amount), company.opening].includes(
      employee.charges[which]!.amount,
    )
  )
    employee = someone();
  lines.push({
    day: day(),
    amount: employee.charges[which]!.amount,
    payer: payerOf(company),
    text: '',
    reference: '',
    truth: employee.id,
    kind: 'company-pays',
    pays: [employee.charges[which]!.reference],
  });
  // After A, the company and the parents pay their own charges, by name.
  if (which === 1)
    for (const payer of [company, ...parents])
      lines.push({
        day: day(),
        amount: payer.charges[1]!.amount,
        payer: payerOf(payer),
        text: '',
        reference: '',
        truth: payer.id,
        kind: 'own-after-paying-for-another',
        pays: [payer.charges[1]!.reference],
      });
  // A third party pays for a client; in B the same one pays for them and for someone else.
  const thirdParty = thirdParties[account.currency as 'KRW' | 'MYR'];
  lines.push({
    day: day(),
    amount: beneficiary.charges[which]!.amount,
    payer: thirdParty[0]!,
    text: '',
    reference: '',
    truth: beneficiary.id,
    kind: 'third-party',
    pays: [beneficiary.charges[which]!.reference],
  });
  if (which === 1) {
    const other = someone();
    lines.push({
      day: day(),
      amount: other.charges[1]!.amount,
      payer: thirdParty[0]!,
      text: '',
      reference: '',
      truth: other.id,
      kind: 'third-party-for-another',
      pays: [other.charges[1]!.reference],
    });
  }
  // A namesake repays a loan: the amount is the other namesake's charge.
  const [owing, lender] = which === 0 ? namesakes : [namesakes[1], namesakes[0]];
  lines.push({
    day: day(),
    amount: owing.charges[which]!.amount,
    payer: owing.payer[0]!,
    text: '',
    reference: '',
    truth: lender.id,
    kind: 'namesake-loan',
  });
  // Somebody outside the book sends an amount some client owes.
  lines.push({
    day: day(),
    amount: rng.pick(clients).charges[which]!.amount,
    payer: account.currency === 'KRW' ? '무통장입금' : 'CASH DEPOSIT',
    text: thirdParty[2]!,
    reference: '',
    truth: null,
    kind: 'stranger-same-amount',
  });
  // A client pays more than the charge, with its reference.
  const over = someone();
  lines.push({
    day: day(),
    amount: over.charges[which]!.amount + (account.currency === 'KRW' ? 7_000 : 1_234),
    payer: payerOf(over),
    text: over.charges[which]!.reference,
    reference: '',
    truth: over.id,
    kind: 'overpaid',
  });
  // Identical twins: one client pays the same amount twice on one day.
  const twice = someone();
  const twinDay = day();
  for (let count = 0; count < 2; count++)
    lines.push({
      day: twinDay,
      amount: Math.ceil(twice.charges[which]!.amount / 2),
      payer: payerOf(twice),
      text: '',
      reference: '',
      truth: twice.id,
      kind: 'twin',
    });
  // Everyone else: most pay their charge.
  for (const client of clients) {
    if (used.has(client) || account.paidAhead.has(client)) continue;
    const charge = client.charges[which]!;
    const roll = rng.next();
    const base = { day: day(), payer: payerOf(client), truth: client.id };
    const krw = account.currency === 'KRW';
    if (varied && which === 0 && roll > 0.92) {
      // Both charges in one transfer, both references in the memo, no name.
      account.paidAhead.add(client);
      const [first, second] = client.charges as [
        BookClient['charges'][0],
        BookClient['charges'][0],
      ];
      lines.push({
        ...base,
        payer: generic,
        amount: first.amount + second.amount,
        text: bothReferences(first.reference, second.reference, krw),
        reference: '',
        kind: 'two-references',
        pays: [first.reference, second.reference],
      });
    } else if (roll < 0.3)
      lines.push({
        ...base,
        amount: charge.amount,
        text: '',
        reference: varied ? writtenReference(rng, charge.reference) : charge.reference,
        kind: 'full',
        pays: [charge.reference],
      });
    else if (roll < 0.5)
      lines.push({
        ...base,
        amount: charge.amount,
        text: '',
        reference: '',
        kind: 'name-amount',
        pays: [charge.reference],
      });
    else if (roll < 0.6)
      lines.push({
        ...base,
        payer: generic,
        amount: charge.amount,
        text: varied ? writtenReference(rng, charge.reference) : charge.reference,
        reference: '',
        kind: 'reference-only',
        pays: [charge.reference],
      });
    else if (roll < 0.7)
      lines.push({
        ...base,
        amount: Math.max(1, Math.floor(charge.amount / 3)),
        text: '',
        reference: '',
        kind: 'part',
      });
  }
  return rng.shuffle(lines).sort((a, b) => a.day - b.day);
}

// The banks' layouts, each written as that bank writes it.

interface Rendered {
  format: 'csv' | 'xlsx' | 'ofx' | 'camt053';
  file: Buffer;
  mapping?: Partial<BankMapping>;
}

const month = (which: 0 | 1) => (which === 0 ? '03' : '04');
const pad = (day: number) => String(day).padStart(2, '0');
const decimal = (amount: number, currency: Currency) =>
  currency === 'KRW' ? String(amount) : (amount / 100).toFixed(2);
const grouped = (amount: number, currency: Currency) =>
  currency === 'KRW'
    ? amount.toLocaleString('en-US')
    : (amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
const csvCell = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A Korean bank's CSV: EUC-KR, a title line, debit and credit columns, the payer apart. */
function koreanCsv(lines: Line[], currency: Currency, which: 0 | 1, refund: number): Rendered {
  let balance = 5_000_000;
  const rows = [
    '[입출금거래내역] 조회기간 2026',
    '거래일시,적요,보낸분/받는분,출금액,입금액,잔액,메모',
  ];
  const write = (line: Omit<Line, 'truth' | 'kind'>, out: number) => {
    balance += line.amount - out;
    rows.push(
      [
        `2026.${month(which)}.${pad(line.day)} 10:${pad(line.day)}:00`,
        out ? '출금' : '타행입금',
        line.payer,
        grouped(out, currency),
        grouped(line.amount, currency),
        grouped(balance, currency),
        [line.text, line.reference].filter(Boolean).join(' '),
      ]
        .map(csvCell)
        .join(','),
    );
  };
  write({ day: 1, amount: 0, payer: '환불', text: '', reference: '' }, refund);
  for (const line of lines) write(line, 0);
  return {
    format: 'csv',
    file: iconv.encode(rows.join('\r\n'), 'cp949'),
    mapping: {
      date: 0,
      description: 2,
      debit: 3,
      credit: 4,
      balance: 5,
      reference: 6,
      skipRows: 2,
      dateOrder: 'YMD',
      decimal: '.',
      encoding: 'euc-kr',
    },
  };
}

/** A Malaysian bank's CSV: days first, one signed amount, the reference in its own column. */
function malaysianCsv(lines: Line[], currency: Currency, which: 0 | 1, refund: number): Rendered {
  let balance = 1_000_000;
  const rows = ['Posting Date,Transaction Description,Reference,Amount,Balance'];
  const write = (day: number, text: string, reference: string, amount: number) => {
    balance += amount;
    rows.push(
      [
        `${pad(day)}/${month(which)}/2026`,
        text,
        reference,
        (amount < 0 ? '-' : '') + decimal(Math.abs(amount), currency),
        decimal(balance, currency),
      ]
        .map(csvCell)
        .join(','),
    );
  };
  write(1, 'REFUND', '', -refund);
  for (const line of lines)
    write(line.day, `IBG ${line.payer} ${line.text}`.trim(), line.reference, line.amount);
  return {
    format: 'csv',
    file: Buffer.from(rows.join('\n')),
    mapping: {
      date: 0,
      description: 1,
      reference: 2,
      amount: 3,
      balance: 4,
      dateOrder: 'DMY',
      decimal: '.',
    },
  };
}

function ofx(lines: Line[], currency: Currency, which: 0 | 1, refund: number): Rendered {
  const transaction = (index: number, line: Omit<Line, 'truth' | 'kind'>, sign: string) =>
    `<STMTTRN><TRNTYPE>${sign ? 'DEBIT' : 'CREDIT'}</TRNTYPE><DTPOSTED>2026${month(which)}${pad(line.day)}120000</DTPOSTED>` +
    `<TRNAMT>${sign}${decimal(line.amount, currency)}</TRNAMT><FITID>${which}-${index}</FITID>` +
    `<NAME>${xml(line.payer)}</NAME>${line.text ? `<MEMO>${xml(line.text)}</MEMO>` : ''}` +
    `${line.reference ? `<REFNUM>${xml(line.reference)}</REFNUM>` : ''}</STMTTRN>`;
  const body = [
    transaction(0, { day: 1, amount: refund, payer: 'REFUND', text: '', reference: '' }, '-'),
    ...lines.map((line, index) => transaction(index + 1, line, '')),
  ].join('');
  return {
    format: 'ofx',
    file: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>' +
        `<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1</TRNUID><STMTRS><CURDEF>${currency}</CURDEF>` +
        `<BANKACCTFROM><BANKID>0001</BANKID><ACCTID>4410</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>` +
        `<BANKTRANLIST>${body}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`,
    ),
  };
}

function camt(lines: Line[], currency: Currency, which: 0 | 1, refund: number): Rendered {
  const entry = (index: number, line: Omit<Line, 'truth' | 'kind'>, credit: boolean) =>
    `<Ntry><Amt Ccy="${currency}">${decimal(line.amount, currency)}</Amt><CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>` +
    `<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-${month(which)}-${pad(line.day)}</Dt></BookgDt>` +
    `<AcctSvcrRef>C${which}-${index}</AcctSvcrRef><NtryDtls><TxDtls>` +
    `<RltdPties><Dbtr><Nm>${xml(line.payer)}</Nm></Dbtr></RltdPties>` +
    `<RmtInf>${line.text ? `<Ustrd>${xml(line.text)}</Ustrd>` : ''}` +
    `${line.reference ? `<Strd><CdtrRefInf><Ref>${xml(line.reference)}</Ref></CdtrRefInf></Strd>` : ''}</RmtInf>` +
    `</TxDtls></NtryDtls></Ntry>`;
  const body = [
    entry(0, { day: 1, amount: refund, payer: 'REFUND', text: '', reference: '' }, false),
    ...lines.map((line, index) => entry(index + 1, line, true)),
  ].join('');
  return {
    format: 'camt053',
    file: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>' +
        '<GrpHdr><MsgId>1</MsgId><CreDtTm>2026-05-01T00:00:00</CreDtTm></GrpHdr>' +
        `<Stmt><Id>S${which}</Id><Acct><Id><Othr><Id>4410</Id></Othr></Id><Ccy>${currency}</Ccy></Acct>${body}</Stmt>` +
        '</BkToCstmrStmt></Document>',
    ),
  };
}

/**
 * A Korean internet bank's Excel export (issue 57): a title and a blank row, 적요 the same on every
 * line, 내용 what the sender wrote, the payer in a column of their own, dates as dates.
 */
function koreanXlsx(lines: Line[], currency: Currency, which: 0 | 1, refund: number): Rendered {
  let balance = 5_000_000;
  const rows: SheetCell[][] = [
    ['[거래내역조회] 2026'],
    [],
    ['거래일시', '적요', '내용', '보낸분', '출금액', '입금액', '잔액'],
  ];
  const write = (line: Omit<Line, 'truth' | 'kind'>, out: number) => {
    balance += line.amount - out;
    rows.push([
      { date: `2026-${month(which)}-${pad(line.day)}` },
      out ? '출금' : '타행입금',
      [line.text, line.reference].filter(Boolean).join(' '),
      line.payer,
      out,
      line.amount,
      balance,
    ]);
  };
  write({ day: 1, amount: 0, payer: '환불', text: '', reference: '' }, refund);
  for (const line of lines) write(line, 0);
  return {
    format: 'xlsx',
    file: xlsxFile(rows),
    mapping: {
      date: 0,
      description: 2,
      counterparty: 3,
      debit: 4,
      credit: 5,
      balance: 6,
      skipRows: 2,
      dateOrder: 'YMD',
      decimal: '.',
    },
  };
}

/** Excel's "Unicode text" of a Malaysian bank's sheet: UTF-16 with its mark, tabs, the payer apart. */
function utf16Text(lines: Line[], currency: Currency, which: 0 | 1, refund: number): Rendered {
  let balance = 1_000_000;
  const rows = ['Posting Date\tTransaction Description\tSender\tReference\tAmount\tBalance'];
  const write = (day: number, payer: string, text: string, reference: string, amount: number) => {
    balance += amount;
    rows.push(
      [
        `${pad(day)}/${month(which)}/2026`,
        text || 'IBG CREDIT',
        payer,
        reference,
        (amount < 0 ? '-' : '') + decimal(Math.abs(amount), currency),
        decimal(balance, currency),
      ].join('\t'),
    );
  };
  write(1, 'REFUND', '', '', -refund);
  for (const line of lines) write(line.day, line.payer, line.text, line.reference, line.amount);
  return {
    format: 'csv',
    file: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(rows.join('\r\n'), 'utf16le')]),
    mapping: {
      date: 0,
      description: 1,
      counterparty: 2,
      reference: 3,
      amount: 4,
      balance: 5,
      dateOrder: 'DMY',
      decimal: '.',
    },
  };
}

const layouts = { koreanCsv, malaysianCsv, ofx, camt, koreanXlsx, utf16Text };
type Layout = keyof typeof layouts;

interface Score {
  lines: number;
  lost: number;
  paid: number;
  firstRight: number;
  amongRight: number;
  /** Client lines whose right client is suggested at high confidence. */
  highRight: number;
  high: number;
  wrongHigh: string[];
  /** The kinds of line whose first suggestion is not the right client, for reading. */
  missed: string[];
  /** Lines paying whole charges, and those whose right client's suggestion names exactly them. */
  whole: number;
  chargesRight: number;
  chargesMissed: string[];
}

function score(expected: Line[], previewed: PreviewLine[]): Score {
  const result: Score = {
    lines: expected.length,
    lost: Math.max(0, expected.length - previewed.length),
    paid: 0,
    firstRight: 0,
    amongRight: 0,
    highRight: 0,
    high: 0,
    wrongHigh: [],
    missed: [],
    whole: 0,
    chargesRight: 0,
    chargesMissed: [],
  };
  // The preview keeps the file's order of incoming lines.
  for (const [index, line] of previewed.entries()) {
    const truth = expected[index];
    if (!truth) break;
    expect(line.amount).toBe(truth.amount);
    const [first] = line.suggestions;
    if (truth.truth !== null) {
      result.paid += 1;
      if (first?.clientId === truth.truth) result.firstRight += 1;
      else
        result.missed.push(
          `${truth.kind} (${line.counterparty ?? ''} ${line.description} ${line.reference}) ${JSON.stringify(line.suggestions.map((each) => each.confidence))}`,
        );
      if (line.suggestions.some((suggestion) => suggestion.clientId === truth.truth))
        result.amongRight += 1;
      if (
        line.suggestions.some(
          (suggestion) => suggestion.clientId === truth.truth && suggestion.confidence === 'high',
        )
      )
        result.highRight += 1;
    }
    if (truth.pays) {
      result.whole += 1;
      const right = line.suggestions.find((suggestion) => suggestion.clientId === truth.truth);
      const named = (right?.pays ?? []).map((charge) => charge.reference);
      if ([...named].sort().join() === [...truth.pays].sort().join()) result.chargesRight += 1;
      else
        result.chargesMissed.push(
          `${truth.kind} ${truth.pays.join()}: ${right ? `named ${named.join() || 'none'}` : 'client not suggested'}`,
        );
    }
    for (const suggestion of line.suggestions)
      if (suggestion.confidence === 'high') {
        result.high += 1;
        if (suggestion.clientId !== truth.truth)
          result.wrongHigh.push(
            `${truth.kind} (${line.description}) ${JSON.stringify(suggestion)} ${line.amount}`,
          );
      }
  }
  return result;
}

async function previewOf(cookie: string, label: string, currency: Currency, rendered: Rendered) {
  const answer = await testApp.app.inject({
    method: 'POST',
    url: '/api/bank/preview',
    headers: { cookie },
    payload: {
      accountLabel: label,
      currency,
      format: rendered.format,
      ...(rendered.mapping && { mapping: rendered.mapping }),
      file: rendered.file.toString('base64'),
    },
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<BankPreview>().lines;
}

/** Confirms each line for whoever really paid it, as an owner correcting the suggestions would. */
async function confirmTruths(
  cookie: string,
  label: string,
  currency: Currency,
  expected: Line[],
  previewed: PreviewLine[],
) {
  const lines = previewed.flatMap((line, index) => {
    const truth = expected[index]?.truth;
    if (!truth || line.alreadyRecorded) return [];
    const { id: _id, alreadyRecorded: _recorded, suggestions, ...fields } = line;
    // The charges named for the right client, kept when they are the ones paid (an owner would
    // uncheck the others).
    const named = suggestions.find((suggestion) => suggestion.clientId === truth)?.pays ?? [];
    const paid = expected[index]?.pays ?? [];
    const right =
      named.length > 0 &&
      named
        .map((charge) => charge.reference)
        .sort()
        .join() === [...paid].sort().join();
    return [
      {
        ...fields,
        allocations: [
          {
            clientId: truth,
            amount: line.amount,
            ...(right && { pays: named.map((charge) => charge.entryId) }),
          },
        ],
      },
    ];
  });
  return (
    await injectOk(testApp.app, 'POST', '/api/bank/confirm', cookie, {
      accountLabel: label,
      currency,
      lines,
    })
  ).json<BankConfirmed>();
}

const sum = (
  scores: Score[],
  key:
    | 'lines'
    | 'lost'
    | 'paid'
    | 'firstRight'
    | 'amongRight'
    | 'high'
    | 'highRight'
    | 'whole'
    | 'chargesRight',
) => scores.reduce((total, each) => total + each[key], 0);

const figures = (scores: Score[]) => ({
  lines: sum(scores, 'lines'),
  lost: sum(scores, 'lost'),
  high: sum(scores, 'high'),
  wrongHigh: scores.flatMap((each) => each.wrongHigh),
  recall: sum(scores, 'firstRight') / sum(scores, 'paid'),
  among: sum(scores, 'amongRight') / sum(scores, 'paid'),
  rightHigh: sum(scores, 'highRight') / sum(scores, 'paid'),
  missed: scores.flatMap((each) => each.missed),
  /** Of the lines paying whole charges, those whose charges are named right (issue 57). */
  chargesNamed: sum(scores, 'chargesRight') / sum(scores, 'whole'),
  whole: sum(scores, 'whole'),
  chargesRight: sum(scores, 'chargesRight'),
  chargesMissed: scores.flatMap((each) => each.chargesMissed),
});

/** Lines paying whole charges and those named right, per layout over every seed run (issue 57). */
const chargesByLayout = new Map<Layout, { whole: number; right: number }>();
afterAll(() => {
  if (chargesByLayout.size === 0) return;
  console.log(
    JSON.stringify({
      chargesNamedByLayout: Object.fromEntries(
        [...chargesByLayout].map(([layout, { whole, right }]) => [
          layout,
          `${right}/${whole} = ${(right / whole).toFixed(3)}`,
        ]),
      ),
    }),
  );
});

/** The whole run for one seed: two accounts, statement A confirmed, then statement B. */
async function run(seed: number, plan: Record<'KRW' | 'MYR', [Layout, Layout]>, varied = false) {
  const rng = random(seed);
  const { cookie } = await joinAs(testApp.app);
  const before: Score[] = [];
  const after: Score[] = [];
  const byLayout = new Map<Layout, Score[]>();
  const scored = (layout: Layout, each: Score) => {
    byLayout.set(layout, [...(byLayout.get(layout) ?? []), each]);
    const charges = chargesByLayout.get(layout) ?? { whole: 0, right: 0 };
    chargesByLayout.set(layout, {
      whole: charges.whole + each.whole,
      right: charges.right + each.chargesRight,
    });
    return each;
  };
  for (const currency of ['KRW', 'MYR'] as const) {
    const people =
      currency === 'KRW' ? koreanPeople(rng, 60, varied) : malaysianPeople(rng, 60, varied);
    const account = await buildAccount(cookie, rng, currency, people);
    const label = `${currency} account`;
    const refund = account.clients[2]!.charges[0]!.amount;
    const [layoutA, layoutB] = plan[currency];
    const linesA = statementLines(rng, account, 0, varied);
    const fileA = layouts[layoutA](linesA, currency, 0, refund);
    const previewA = await previewOf(cookie, label, currency, fileA);
    before.push(scored(layoutA, score(linesA, previewA)));
    await confirmTruths(cookie, label, currency, linesA, previewA);
    const againA = await previewOf(cookie, label, currency, fileA);
    // Statement A again: every line it confirmed shows as recorded, and only those.
    expect(againA.filter((line) => !line.alreadyRecorded)).toHaveLength(
      linesA.filter((line) => line.truth === null).length,
    );
    const linesB = statementLines(rng, account, 1, varied);
    after.push(
      scored(
        layoutB,
        score(
          linesB,
          await previewOf(cookie, label, currency, layouts[layoutB](linesB, currency, 1, refund)),
        ),
      ),
    );
  }
  const rules = (
    await injectOk(testApp.app, 'GET', '/api/bank/rules', cookie)
  ).json<BankRuleList>();
  return {
    before: figures(before),
    after: figures(after),
    byLayout: Object.fromEntries(
      [...byLayout].map(([layout, scores]) => [layout, figures(scores)]),
    ),
    rules: rules.rules,
    cookie,
  };
}

// What the matcher of issue 45 scored on these statements, the same on both databases (seed:
// recall of the first suggestion before and after learning, wrong high before and after):
// 1: 0.845 and 0.843, 12 and 15 wrong high; 2: 0.871 and 0.830, 12 and 15 wrong high. Those
// recalls are the floors. With issue 53's: 1: 0.948 and 0.912-0.922 (two namesakes owing one
// amount tie, broken by their ids, new each run); 2: 0.914 and 0.940, none wrong.
const recallFloors = { 1: [0.845, 0.843], 2: [0.871, 0.83] } as const;

// Once, on SQLite: the matcher is the same code on both databases, and the routes' database work
// is tested on both in bank.routes.test.ts. On PostgreSQL this file took a CI run 20 s more to
// score the same statements again (issue 54, item 6).
/** A run's figures as the log shows them: per layout, the lines missed only when asked. */
function logged(seed: number, result: Awaited<ReturnType<typeof run>>) {
  const shown = (each: ReturnType<typeof figures>) => {
    const { missed, chargesMissed, ...rest } = each;
    const round = (value: number) => Math.round(value * 1000) / 1000;
    return {
      ...rest,
      recall: round(rest.recall),
      among: round(rest.among),
      rightHigh: round(rest.rightHigh),
      chargesNamed: round(rest.chargesNamed),
      // BANK_SCORE_MISSES=1 lists the lines whose first suggestion is wrong.
      ...(process.env.BANK_SCORE_MISSES && { missed, chargesMissed }),
    };
  };
  console.log(
    JSON.stringify({
      seed,
      before: shown(result.before),
      after: shown(result.after),
      byLayout: Object.fromEntries(
        Object.entries(result.byLayout).map(([layout, each]) => [layout, shown(each)]),
      ),
    }),
  );
}

// Seeds 3 and 4 write names and references as people do (issue 57): legal forms, patronymics,
// given names spelt their own way or alone, references without their prefix or several in one memo.
// What issue 57's matcher scored (recall before and after learning): 3: 0.943 and 0.930; 4: 0.925
// and 0.886 (the matcher of issue 53: 0.802 and 0.840; 0.885 and 0.811).
// Seeds 5 and 6 read the same kind of statements from a Korean bank's XLSX and Excel's UTF-16
// text, the payer in a column of their own: 5: 0.922 and 0.916; 6: 0.925 and 0.876.
const variedFloors = { 3: [0.92, 0.9], 4: [0.9, 0.86], 5: [0.9, 0.89], 6: [0.9, 0.85] } as const;

// Once, on SQLite: the matcher is the same code on both databases, and the routes' database work
// is tested on both in bank.routes.test.ts. On PostgreSQL this file took a CI run 20 s more to
// score the same statements again (issue 54, item 6).
describe.skipIf(testDialect !== 'sqlite')(
  'the matcher scored on generated statements (issue 53; SQLite only)',
  { timeout: 180_000 },
  () => {
    it.each([
      [1, { KRW: ['koreanCsv', 'ofx'], MYR: ['malaysianCsv', 'camt'] }],
      [2, { KRW: ['camt', 'koreanCsv'], MYR: ['ofx', 'malaysianCsv'] }],
    ] as const)(
      'seed %i: no wrong high-confidence suggestion, no line lost',
      async (seed, plan) => {
        const result = await run(seed, plan as Record<'KRW' | 'MYR', [Layout, Layout]>);
        const { before, after } = result;
        logged(seed, result);
        expect(before.lost + after.lost).toBe(0);
        expect(before.wrongHigh).toEqual([]);
        expect(after.wrongHigh).toEqual([]);
        expect(before.recall).toBeGreaterThanOrEqual(recallFloors[seed][0]);
        expect(after.recall).toBeGreaterThanOrEqual(recallFloors[seed][1]);
        // Issue 57: the charges each line pays whole, named right.
        expect(before.chargesNamed).toBeGreaterThanOrEqual(0.95);
        expect(after.chargesNamed).toBeGreaterThanOrEqual(0.95);
      },
    );

    it.each([
      [3, { KRW: ['koreanCsv', 'ofx'], MYR: ['malaysianCsv', 'camt'] }],
      [4, { KRW: ['camt', 'koreanCsv'], MYR: ['ofx', 'malaysianCsv'] }],
      // The files people get (issue 57): a Korean bank's XLSX, Excel's UTF-16 text.
      [5, { KRW: ['koreanXlsx', 'koreanCsv'], MYR: ['utf16Text', 'ofx'] }],
      [6, { KRW: ['ofx', 'koreanXlsx'], MYR: ['camt', 'utf16Text'] }],
    ] as const)(
      'seed %i, names and references as people write them: no wrong high, no line lost',
      async (seed, plan) => {
        const result = await run(seed, plan as Record<'KRW' | 'MYR', [Layout, Layout]>, true);
        const { before, after } = result;
        logged(seed, result);
        expect(before.lost + after.lost).toBe(0);
        expect(before.wrongHigh).toEqual([]);
        expect(after.wrongHigh).toEqual([]);
        expect(before.recall).toBeGreaterThanOrEqual(variedFloors[seed][0]);
        expect(after.recall).toBeGreaterThanOrEqual(variedFloors[seed][1]);
        expect(before.chargesNamed).toBeGreaterThanOrEqual(0.95);
        expect(after.chargesNamed).toBeGreaterThanOrEqual(0.95);
      },
    );
  },
);
