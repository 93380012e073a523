import { createHash } from 'node:crypto';
import { foldText } from '../../../shared/names.ts';
import type {
  BankLine,
  Caution,
  Confidence,
  LearnedFrom,
  MatchReason,
  RuleLearned,
  Suggestion,
} from '../../../shared/schemas/bank.ts';
import { romanisedNames } from './romanised-names.ts';
import { referenceNumber, withoutLegalForms, writtenReferences } from './written-forms.ts';

// Which client paid an incoming line, worked out from what the owner's book holds. Every lookup
// is a map keyed by a folded text or an amount, so a line costs a few dozen lookups whatever
// the number of clients (5,000 lines against 10,000 clients: docs/decisions/030).

export interface MatchBook {
  /** The owner's clients in the statement's currency. */
  clients: readonly {
    id: string;
    firstName: string;
    lastName: string;
    /** A business client's company ('' or left out for a person): one more name it pays under. */
    company?: string | undefined;
    balance: number;
  }[];
  /**
   * What is still unpaid of their charges and openings, oldest first; with the entry's id, day and
   * note the preview names the charges a line pays.
   */
  openItems: readonly OpenItem[];
  /** Payers the owner has confirmed before, with where each was learned when known. */
  rules: readonly { payerKey: string; clientId: string; learned?: RuleLearned | null }[];
}

/** Letters and digits only, folded: "INV-2024/07" and "inv 2024 07" are the same. */
const compact = (text: string) => foldText(text).replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The payer as a rule remembers them: the description folded, without digits (dates, numbers
 * of the transfer), punctuation and spacing, so the next month's transfer gives the same key.
 */
export function payerKey(description: string): string {
  return foldText(description)
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();
}

/**
 * The text a line's payer is known by: the payer's own column when the statement has one (a
 * Korean export's 보낸분: its 적요 says only "타행입금"), else its description.
 */
export const payerText = (line: Pick<BankLine, 'description' | 'counterparty'>) =>
  line.counterparty?.trim() ? line.counterparty : line.description;

/**
 * A learned payer's id in addresses: a payer text may be long, and Hangul is nine characters a
 * syllable once escaped, more than a path segment holds. 22 base64url characters of its SHA-256.
 */
export const payerRuleId = (key: string) =>
  createHash('sha256').update(key).digest('base64url').slice(0, 22);

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');

/**
 * A client's name without its legal form or patronymic word, in both orders, when it had one:
 * "(주)한빛상사" as "한빛상사", "Maju Jaya Sdn Bhd" as "majujaya", "Ahmad bin Ismail" as
 * "ahmadismail".
 */
function formlessNames(first: string, last: string): string[] {
  const [given, family] = [first, last].map((part) => compact(withoutLegalForms(foldText(part))));
  if (given === compact(first) && family === compact(last)) return [];
  return [`${given}${family}`, `${family}${given}`];
}

/**
 * A given name of two words or more written alone, as Malaysians often are ("AHMAD FAIZ" for
 * Ahmad Faiz Rahman, "WEI MING" for Lim Wei Ming): weaker than the whole name, never certain.
 * A Korean given name alone is not a name (민준 is thousands of people).
 */
function givenNameAlone(first: string): string | null {
  const folded = withoutLegalForms(foldText(first));
  if (/[\p{Script=Hangul}\p{Script=Han}]/u.test(folded) || words(folded).length < 2) return null;
  const given = compact(folded);
  return given.length >= 6 ? given : null;
}

/** The runs of a line's text: as written, without legal forms, and the references it writes. */
function textRuns(text: string): string[] {
  const folded = foldText(text);
  const runs = joinedRuns(words(folded).map(compact), 4);
  const formless = withoutLegalForms(folded);
  if (formless !== folded) runs.push(...joinedRuns(words(formless).map(compact), 4));
  runs.push(...writtenReferences(folded));
  return [...new Set(runs)];
}

/** Each run of up to `longest` neighbouring words, joined: "HANBIT TRADING CO" and "한빛 상사". */
function joinedRuns(list: readonly string[], longest: number): string[] {
  const runs: string[] = [];
  for (let start = 0; start < list.length; start++) {
    let run = '';
    for (let end = start; end < Math.min(list.length, start + longest); end++) {
      run += list[end];
      runs.push(run);
    }
  }
  return runs;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

const minimumReferenceLength = 3;
/** Two Hangul or Han syllables make a name; two Latin letters would match words at random. */
const longEnoughName = (name: string) =>
  name.length >= (/[\p{Script=Hangul}\p{Script=Han}]/u.test(name) ? 2 : 4);

/** Same length, one character different: a reference typed with one slip. */
function oneApart(a: string, b: string) {
  if (a.length !== b.length) return false;
  let differences = 0;
  for (let index = 0; index < a.length && differences < 2; index++)
    if (a[index] !== b[index]) differences++;
  return differences === 1;
}
const minimumNearReferenceLength = 5;
/** Open items of one client tried in sums of two or three: 12 make 286 sums. */
const sumItemsLimit = 12;

interface OpenItem {
  clientId: string;
  openAmount: number;
  reference: string;
  id?: number;
  date?: string;
  note?: string;
}

/**
 * The charges a line of `amount` from a client pays (issue 57), first of these that names some:
 * the charges its text refers to when they add up to the amount; the open charge of exactly the
 * amount (the oldest, when several); the one pair or triple of its open charges that adds up to
 * it; all its open charges, when there are at most three and they add up to it. Otherwise none:
 * the payment settles the oldest first.
 */
function chargesPaid(
  items: readonly OpenItem[],
  referenced: readonly OpenItem[],
  amount: number,
): OpenItem[] {
  const total = (list: readonly OpenItem[]) => list.reduce((sum, item) => sum + item.openAmount, 0);
  if (referenced.length > 0 && total(referenced) === amount) return [...referenced];
  const exact = items.find((item) => item.openAmount === amount);
  if (exact) return [exact];
  if (items.length <= sumItemsLimit) {
    let found: OpenItem[] | null = null;
    let count = 0;
    for (let a = 0; a < items.length && count < 2; a++)
      for (let b = a + 1; b < items.length && count < 2; b++) {
        const [first, second] = [items[a] as OpenItem, items[b] as OpenItem];
        const pair = first.openAmount + second.openAmount;
        if (pair === amount) {
          count++;
          found = [first, second];
        }
        for (let c = b + 1; c < items.length && count < 2; c++)
          if (pair + (items[c] as OpenItem).openAmount === amount) {
            count++;
            found = [first, second, items[c] as OpenItem];
          }
      }
    if (count === 1 && found) return found;
  }
  if (items.length <= 3 && total(items) === amount) return [...items];
  return [];
}

/** What a line says of one client it may be from. */
interface Evidence {
  /** References of this client's open charges found in the text, as the charges write them. */
  references: string[];
  /** Only by a short number without its prefix ("2231" for INV-2231): not enough for high. */
  bareOnly: boolean;
  /** What those charges still owe together. */
  referenced: number;
  /** A learned payer names this client (null: learned before rules said where). */
  rule: RuleLearned | null | undefined;
  named: boolean;
  /** An open item of exactly the amount; the balance is exactly the amount. */
  item: boolean;
  /** Two or three of its open items add up to exactly the amount. */
  summed: boolean;
  balance: boolean;
  /** A charge of exactly the amount whose reference the text has with one character off. */
  near: string | null;
  /** Its given name alone is written, and no whole name of anyone. */
  given: boolean;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const reasonRank: Record<MatchReason, number> = {
  reference: 0,
  rule: 1,
  name: 2,
  amount: 3,
  balance: 4,
};

/**
 * The matcher and what confirming a line may teach, from one reading of the book. A suggestion is
 * `high` only when one strong signal names the client and nothing contradicts it (issue 53): an
 * owner selects those without reading them.
 */
export function buildMatchIndex(book: MatchBook) {
  const byReference = new Map<string, OpenItem[]>();
  /** By the number of the reference without its letters: "2026118" for 청구-2026-118. */
  const byReferenceNumber = new Map<string, OpenItem[]>();
  const byItemAmount = new Map<number, OpenItem[]>();
  for (const item of book.openItems) {
    const reference = compact(item.reference);
    if (reference.length >= minimumReferenceLength) push(byReference, reference, item);
    const number = referenceNumber(reference);
    if (number !== null) push(byReferenceNumber, number, item);
    push(byItemAmount, item.openAmount, item);
  }
  // Two or three open items of one client paid in one transfer (issue 57): the clients whose
  // items add up to each amount. A client with many open items is left to its balance.
  const bySum = new Map<number, string[]>();
  const openOf = new Map<string, number[]>();
  // Not `push`: two items of one amount are two items.
  const itemsOf = new Map<string, OpenItem[]>();
  for (const item of book.openItems) {
    openOf.set(item.clientId, [...(openOf.get(item.clientId) ?? []), item.openAmount]);
    const items = itemsOf.get(item.clientId);
    if (items) items.push(item);
    else itemsOf.set(item.clientId, [item]);
  }
  for (const [clientId, amounts] of openOf) {
    if (amounts.length < 2 || amounts.length > sumItemsLimit) continue;
    for (let a = 0; a < amounts.length; a++)
      for (let b = a + 1; b < amounts.length; b++) {
        const pair = (amounts[a] as number) + (amounts[b] as number);
        push(bySum, pair, clientId);
        for (let c = b + 1; c < amounts.length; c++)
          push(bySum, pair + (amounts[c] as number), clientId);
      }
  }
  const byBalance = new Map<number, string[]>();
  const byName = new Map<string, string[]>();
  const byGivenName = new Map<string, string[]>();
  // Ties broken by name, then id: the same order on either database, whatever order rows come in.
  const order = new Map(
    [...book.clients]
      .sort(
        (a, b) =>
          compare(a.lastName, b.lastName) ||
          compare(a.firstName, b.firstName) ||
          compare(a.id, b.id),
      )
      .map((client, index) => [client.id, index]),
  );
  for (const client of book.clients) {
    if (client.balance > 0) push(byBalance, client.balance, client.id);
    const first = compact(client.firstName);
    const last = compact(client.lastName);
    // Either order: a bank writes "KIM MINJUN" or "MINJUN KIM", "김민준" or "민준 김".
    for (const name of [first + last, last + first])
      if (longEnoughName(name)) push(byName, name, client.id);
    // 김민준 as "MINJUN KIM", "KIM MIN JUN" or "LEE" for 이: romanised-names.ts.
    for (const name of romanisedNames(client.firstName, client.lastName))
      if (longEnoughName(name)) push(byName, name, client.id);
    // "(주)한빛상사" as "한빛상사", "AHMAD BIN ISMAIL" as "AHMAD ISMAIL": written-forms.ts.
    for (const name of formlessNames(client.firstName, client.lastName))
      if (longEnoughName(name)) push(byName, name, client.id);
    const given = givenNameAlone(client.firstName);
    if (given !== null) push(byGivenName, given, client.id);
    // A business pays under its company's name, folded as names are, with or without its legal
    // form: "HANBIT TRADING" is Hanbit Trading Sdn Bhd's; a line's runs of up to four words reach it.
    const company = client.company ?? '';
    for (const name of [compact(company), ...formlessNames(company, '')])
      if (longEnoughName(name)) push(byName, name, client.id);
  }
  const byRule = new Map<string, { clientId: string; learned: RuleLearned | null }>();
  for (const rule of book.rules)
    byRule.set(rule.payerKey, { clientId: rule.clientId, learned: rule.learned ?? null });

  /** Every client the line points at, and how. */
  function read(line: BankLine) {
    const evidence = new Map<string, Evidence>();
    const of = (clientId: string) => {
      let found = evidence.get(clientId);
      if (!found) {
        found = {
          references: [],
          bareOnly: true,
          referenced: 0,
          rule: undefined,
          named: false,
          item: false,
          summed: false,
          balance: false,
          near: null,
          given: false,
        };
        evidence.set(clientId, found);
      }
      return found;
    };
    const runs = textRuns(`${line.description} ${line.counterparty ?? ''} ${line.reference}`);
    const referencedItems = new Set<OpenItem>();
    const refer = (item: OpenItem, sure: boolean) => {
      if (referencedItems.has(item)) return;
      referencedItems.add(item);
      const found = of(item.clientId);
      found.references.push(item.reference);
      found.referenced += item.openAmount;
      if (sure) found.bareOnly = false;
    };
    for (const run of runs) for (const item of byReference.get(run) ?? []) refer(item, true);
    // A number alone names a charge only when it is all the word is: six digits or more are
    // as sure as the prefix ("2026-118"), fewer are a hint ("2231" may be anything).
    for (const run of runs)
      if (/^\d+$/.test(run))
        for (const item of byReferenceNumber.get(run) ?? []) refer(item, run.length >= 6);
    const rule = byRule.get(payerKey(payerText(line)));
    if (rule) of(rule.clientId).rule = rule.learned;
    const named = new Set<string>();
    /** Clients named by a name another client also has. */
    const namesakes = new Map<string, string>();
    for (const run of runs) {
      const ids = byName.get(run);
      if (!ids) continue;
      for (const id of ids) {
        named.add(id);
        of(id).named = true;
        const other = ids.find((each) => each !== id);
        if (other !== undefined) namesakes.set(id, other);
      }
    }
    // A given name alone ("AHMAD FAIZ"), only when no whole name is written.
    if (named.size === 0)
      for (const run of runs) {
        const ids = byGivenName.get(run);
        if (!ids) continue;
        for (const id of ids) {
          of(id).given = true;
          const other = ids.find((each) => each !== id);
          if (other !== undefined) namesakes.set(id, other);
        }
      }
    const items = byItemAmount.get(line.amount) ?? [];
    for (const item of items) of(item.clientId).item = true;
    for (const clientId of bySum.get(line.amount) ?? []) of(clientId).summed = true;
    for (const id of byBalance.get(line.amount) ?? []) of(id).balance = true;
    for (const item of items) {
      const reference = compact(item.reference);
      if (
        reference.length >= minimumNearReferenceLength &&
        !referencedItems.has(item) &&
        runs.some((run) => oneApart(run, reference))
      )
        of(item.clientId).near = item.reference;
    }
    return { evidence, named, namesakes, rule, referencedItems };
  }

  const fits = (found: Evidence, amount: number) =>
    found.item ||
    found.balance ||
    found.summed ||
    (found.references.length > 0 && found.referenced === amount);

  /** The charges of a client a line pays, as the preview names them (`chargesPaid`). */
  const namedCharges = (clientId: string, referenced: Set<OpenItem>, amount: number) =>
    chargesPaid(
      itemsOf.get(clientId) ?? [],
      [...referenced].filter((item) => item.clientId === clientId),
      amount,
    ).flatMap((item) =>
      item.id === undefined
        ? []
        : [
            {
              entryId: item.id,
              reference: item.reference,
              note: item.note ?? '',
              date: item.date ?? '',
              openAmount: item.openAmount,
            },
          ],
    );

  function match(line: BankLine): Suggestion[] {
    const { evidence, named, namesakes, rule, referencedItems } = read(line);
    const referencing = [...evidence].filter(([, found]) => found.references.length > 0);
    const owing = [...evidence].filter(
      ([, found]) => found.item || found.balance || found.summed,
    ).length;
    const suggestions: (Suggestion & { weight: number })[] = [];
    for (const [clientId, found] of evidence) {
      const fit = fits(found, line.amount);
      const referenced = found.references.length > 0;
      const ruled = found.rule !== undefined;
      const namedOther = [...named].find((id) => id !== clientId);
      const referenceOther = referencing.find(([id]) => id !== clientId);
      const ruleOther = rule && rule.clientId !== clientId ? rule.clientId : undefined;
      const namesake = namesakes.get(clientId);
      const onlyReference = referenced && referencing.length === 1;
      const high =
        (onlyReference && !found.bareOnly && fit && !namedOther && !ruleOther) ||
        (ruled && fit && !namedOther && !referenceOther) ||
        (found.named && named.size === 1 && fit && !referenceOther && !ruleOther);
      const reason: MatchReason = referenced
        ? 'reference'
        : ruled
          ? 'rule'
          : (found.named || found.given) && fit
            ? 'name'
            : found.near
              ? 'reference'
              : found.item
                ? 'amount'
                : found.balance
                  ? 'balance'
                  : found.summed
                    ? 'amount'
                    : 'name';
      const sure =
        onlyReference ||
        ruled ||
        (found.named && !namesake) ||
        (found.given && !namesake && !referenceOther && !ruleOther) ||
        found.near !== null ||
        (fit && owing === 1);
      const confidence: Confidence = high ? 'high' : sure ? 'medium' : 'low';
      let caution: Caution | undefined;
      if ((referenced || ruled) && namedOther !== undefined && !found.named)
        caution = {
          kind: 'payer',
          ...(referenced && { reference: found.references[0] }),
          otherClientId: namedOther,
        };
      else if (referenceOther)
        caution = {
          kind: 'reference',
          reference: referenceOther[1].references[0],
          otherClientId: referenceOther[0],
        };
      else if (ruleOther !== undefined) caution = { kind: 'rule', otherClientId: ruleOther };
      else if (namesake !== undefined) caution = { kind: 'namesake', otherClientId: namesake };
      else if ((referenced || ruled) && !fit)
        caution = { kind: 'amount', ...(referenced && { reference: found.references[0] }) };
      else if (!referenced && found.near) caution = { kind: 'near', reference: found.near };
      const weight =
        (referenced ? (onlyReference ? 4 : 2) : 0) +
        (ruled ? 3 : 0) +
        (found.named ? (namesake ? 1.5 : 3) : 0) +
        (found.given ? (namesake ? 1 : 2) : 0) +
        (found.near ? 2.5 : 0) +
        (fit ? (owing <= 1 ? 2 : 1.5) : 0);
      suggestions.push({
        clientId,
        reason,
        confidence,
        ...(caution && { caution }),
        ...(reason === 'rule' && found.rule && { learned: found.rule }),
        weight,
      });
    }
    suggestions.sort(
      (a, b) =>
        b.weight - a.weight ||
        reasonRank[a.reason] - reasonRank[b.reason] ||
        (order.get(a.clientId) ?? 0) - (order.get(b.clientId) ?? 0),
    );
    // The charges each line pays, for the suggestions shown only.
    return suggestions.slice(0, 5).map(({ weight: _weight, ...suggestion }) => {
      const pays = namedCharges(suggestion.clientId, referencedItems, line.amount);
      return pays.length > 0 ? { ...suggestion, pays } : suggestion;
    });
  }

  /**
   * What confirming the line for the client may teach of its payer text, or null when nothing:
   * not when a reference found the client (the text is the reference's, not the payer's), not
   * when the text names another client (a parent, a company, a namesake paying), and not when a
   * reference in it is another client's. Else what found the client, or `manual`.
   */
  function learnedFrom(line: BankLine, clientId: string): LearnedFrom | null {
    const { evidence, named, namesakes } = read(line);
    if ([...named].some((id) => id !== clientId)) return null;
    // A given name alone that other clients share ("SITI NORA"): it names them as much.
    if (evidence.get(clientId)?.given && namesakes.has(clientId)) return null;
    if ([...evidence.values()].some((found) => found.references.length > 0)) return null;
    const found = evidence.get(clientId);
    if (found?.rule !== undefined) return null;
    if (found?.named) return 'name';
    if (found?.item) return 'amount';
    if (found?.balance) return 'balance';
    return 'manual';
  }

  return { match, learnedFrom };
}

export function buildMatcher(book: MatchBook): (line: BankLine) => Suggestion[] {
  return buildMatchIndex(book).match;
}
