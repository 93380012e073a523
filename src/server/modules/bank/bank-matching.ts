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
  /** What is still unpaid of their charges and openings. */
  openItems: readonly { clientId: string; openAmount: number; reference: string }[];
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
 * A learned payer's id in addresses: a payer text may be long, and Hangul is nine characters a
 * syllable once escaped, more than a path segment holds. 22 base64url characters of its SHA-256.
 */
export const payerRuleId = (key: string) =>
  createHash('sha256').update(key).digest('base64url').slice(0, 22);

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');

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

interface OpenItem {
  clientId: string;
  openAmount: number;
  reference: string;
}

/** What a line says of one client it may be from. */
interface Evidence {
  /** References of this client's open charges found in the text, as the charges write them. */
  references: string[];
  /** What those charges still owe together. */
  referenced: number;
  /** A learned payer names this client (null: learned before rules said where). */
  rule: RuleLearned | null | undefined;
  named: boolean;
  /** An open item of exactly the amount; the balance is exactly the amount. */
  item: boolean;
  balance: boolean;
  /** A charge of exactly the amount whose reference the text has with one character off. */
  near: string | null;
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
  const byItemAmount = new Map<number, OpenItem[]>();
  for (const item of book.openItems) {
    const reference = compact(item.reference);
    if (reference.length >= minimumReferenceLength) push(byReference, reference, item);
    push(byItemAmount, item.openAmount, item);
  }
  const byBalance = new Map<number, string[]>();
  const byName = new Map<string, string[]>();
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
    // A business pays under its company's name, folded as names are: "HANBIT TRADING" is 한빛
    // Trading's; a line's runs of up to four words reach it.
    const company = compact(client.company ?? '');
    if (longEnoughName(company)) push(byName, company, client.id);
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
          referenced: 0,
          rule: undefined,
          named: false,
          item: false,
          balance: false,
          near: null,
        };
        evidence.set(clientId, found);
      }
      return found;
    };
    const runs = joinedRuns(
      words(foldText(`${line.description} ${line.reference}`)).map(compact),
      4,
    );
    const referencedItems = new Set<OpenItem>();
    for (const run of runs)
      for (const item of byReference.get(run) ?? [])
        if (!referencedItems.has(item)) {
          referencedItems.add(item);
          const found = of(item.clientId);
          found.references.push(item.reference);
          found.referenced += item.openAmount;
        }
    const rule = byRule.get(payerKey(line.description));
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
    const items = byItemAmount.get(line.amount) ?? [];
    for (const item of items) of(item.clientId).item = true;
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
    return { evidence, named, namesakes, rule };
  }

  const fits = (found: Evidence, amount: number) =>
    found.item || found.balance || (found.references.length > 0 && found.referenced === amount);

  function match(line: BankLine): Suggestion[] {
    const { evidence, named, namesakes, rule } = read(line);
    const referencing = [...evidence].filter(([, found]) => found.references.length > 0);
    const owing = [...evidence].filter(([, found]) => found.item || found.balance).length;
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
        (onlyReference && fit && !namedOther && !ruleOther) ||
        (ruled && fit && !namedOther && !referenceOther) ||
        (found.named && named.size === 1 && fit && !referenceOther && !ruleOther);
      const reason: MatchReason = referenced
        ? 'reference'
        : ruled
          ? 'rule'
          : found.named && fit
            ? 'name'
            : found.near
              ? 'reference'
              : found.item
                ? 'amount'
                : found.balance
                  ? 'balance'
                  : 'name';
      const sure =
        onlyReference ||
        ruled ||
        (found.named && !namesake) ||
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
    return suggestions.slice(0, 5).map(({ weight: _weight, ...suggestion }) => suggestion);
  }

  /**
   * What confirming the line for the client may teach of its payer text, or null when nothing:
   * not when a reference found the client (the text is the reference's, not the payer's), not
   * when the text names another client (a parent, a company, a namesake paying), and not when a
   * reference in it is another client's. Else what found the client, or `manual`.
   */
  function learnedFrom(line: BankLine, clientId: string): LearnedFrom | null {
    const { evidence, named } = read(line);
    if ([...named].some((id) => id !== clientId)) return null;
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
