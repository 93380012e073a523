import { createHash } from 'node:crypto';
import { foldText } from '../../../shared/names.ts';
import type {
  BankLine,
  Confidence,
  MatchReason,
  Suggestion,
} from '../../../shared/schemas/bank.ts';
import { romanisedNames } from './romanised-names.ts';

// Which client paid an incoming line, worked out from what the owner's book holds. Every lookup
// is a map keyed by a folded text or an amount, so a line costs a few dozen lookups whatever
// the number of clients (5,000 lines against 10,000 clients: docs/decisions/030).

export interface MatchBook {
  /** The owner's clients in the statement's currency. */
  clients: readonly { id: string; firstName: string; lastName: string; balance: number }[];
  /** What is still unpaid of their charges and openings. */
  openItems: readonly { clientId: string; openAmount: number; reference: string }[];
  /** Payers the owner has confirmed before. */
  rules: readonly { payerKey: string; clientId: string }[];
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

export function buildMatcher(book: MatchBook): (line: BankLine) => Suggestion[] {
  const byReference = new Map<string, string[]>();
  const byItemAmount = new Map<number, string[]>();
  for (const item of book.openItems) {
    const reference = compact(item.reference);
    if (reference.length >= minimumReferenceLength) push(byReference, reference, item.clientId);
    push(byItemAmount, item.openAmount, item.clientId);
  }
  const byBalance = new Map<number, string[]>();
  const byName = new Map<string, string[]>();
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
  }
  const byRule = new Map<string, string[]>();
  for (const rule of book.rules) push(byRule, rule.payerKey, rule.clientId);

  return (line) => {
    const found: Suggestion[] = [];
    const add = (
      clientIds: readonly string[] | undefined,
      reason: MatchReason,
      sure: Confidence,
    ) => {
      if (!clientIds) return;
      const confidence: Confidence = clientIds.length === 1 ? sure : 'low';
      for (const clientId of clientIds)
        if (!found.some((suggestion) => suggestion.clientId === clientId))
          found.push({ clientId, reason, confidence });
    };
    const text = `${line.description} ${line.reference}`;
    const runs = joinedRuns(words(foldText(text)).map(compact), 4);
    for (const run of runs) add(byReference.get(run), 'reference', 'high');
    add(byRule.get(payerKey(line.description)), 'rule', 'high');
    const named = runs.flatMap((run) => byName.get(run) ?? []);
    const itemAmount = byItemAmount.get(line.amount);
    const balance = byBalance.get(line.amount);
    // An amount owed by a client also named in the line is the likeliest of all.
    const namedAndOwing = named.filter(
      (id) => itemAmount?.includes(id) === true || balance?.includes(id) === true,
    );
    if (namedAndOwing.length > 0) add(namedAndOwing, 'name', 'high');
    add(itemAmount, 'amount', 'medium');
    add(balance, 'balance', 'medium');
    add([...new Set(named)], 'name', 'medium');
    return found.slice(0, 5);
  };
}
