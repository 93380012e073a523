import { parseAmount, type Currency } from '../../../shared/money.ts';
import type { Confidence, PreviewLine } from '../../../shared/schemas/bank.ts';

/** One part of a line: who paid, and (in a split) how much, as typed. */
interface Part {
  clientId: string | null;
  amountText: string;
}

/** What the owner chose for one line of the statement. */
export interface LineChoice {
  selected: boolean;
  split: boolean;
  parts: Part[];
  /** The charges the suggestion named that the owner unchecked: those settle oldest first. */
  dropped?: readonly number[];
}

/** A part's payment: who and how much, and the charges it pays when the preview named some. */
export interface Allocation {
  clientId: string;
  amount: number;
  pays?: number[];
}

/**
 * The charges a line paid whole by one client pays: those its suggestion for that client named,
 * less those the owner unchecked. A split names none: each part settles the oldest first.
 */
function chargesKept(line: PreviewLine, choice: LineChoice) {
  if (choice.split) return [];
  const clientId = choice.parts[0]?.clientId;
  const named = line.suggestions.find((each) => each.clientId === clientId)?.pays ?? [];
  return named.filter((charge) => !(choice.dropped ?? []).includes(charge.entryId));
}

export const confidenceFilters = ['all', 'high', 'medium', 'low', 'unmatched'] as const;
export type ConfidenceFilter = (typeof confidenceFilters)[number];

/** The line's best suggestion's confidence, or null when nobody is suggested. */
const confidenceOf = (line: PreviewLine): Confidence | null =>
  line.suggestions[0]?.confidence ?? null;

export function shownBy(filter: ConfidenceFilter, line: PreviewLine): boolean {
  if (filter === 'all') return true;
  const confidence = confidenceOf(line);
  return filter === 'unmatched' ? confidence === null : confidence === filter;
}

/**
 * The first choice: the best suggestion, checked only when it is a strong one (a line recorded
 * before cannot be checked); the owner checks the others after a look.
 */
export function initialChoice(line: PreviewLine): LineChoice {
  const best = line.suggestions[0];
  return {
    selected: !line.alreadyRecorded && best?.confidence === 'high',
    split: false,
    parts: [{ clientId: best?.clientId ?? null, amountText: '' }],
  };
}

export type ChoiceProblem =
  | { kind: 'no-client' }
  | { kind: 'bad-amount'; part: number; error: string }
  | { kind: 'sum'; total: number; difference: number };

/** The payments a line's choice makes (clientId and minor units), or what is wrong with it. */
export function allocationsOf(
  line: PreviewLine,
  choice: LineChoice,
  currency: Currency,
): { ok: true; allocations: Allocation[] } | { ok: false; problem: ChoiceProblem } {
  if (!choice.split) {
    const clientId = choice.parts[0]?.clientId ?? null;
    if (clientId === null) return { ok: false, problem: { kind: 'no-client' } };
    const pays = chargesKept(line, choice).map((charge) => charge.entryId);
    return {
      ok: true,
      allocations: [{ clientId, amount: line.amount, ...(pays.length > 0 && { pays }) }],
    };
  }
  const allocations: { clientId: string; amount: number }[] = [];
  let total = 0;
  for (const [index, part] of choice.parts.entries()) {
    if (part.clientId === null) return { ok: false, problem: { kind: 'no-client' } };
    const parsed = parseAmount(part.amountText, currency);
    if (!parsed.ok || parsed.minor <= 0)
      return {
        ok: false,
        problem: { kind: 'bad-amount', part: index, error: parsed.ok ? '' : parsed.error },
      };
    total += parsed.minor;
    allocations.push({ clientId: part.clientId, amount: parsed.minor });
  }
  if (total !== line.amount)
    return { ok: false, problem: { kind: 'sum', total, difference: line.amount - total } };
  return { ok: true, allocations };
}

/** The line as previewed (every field the server gave, untouched) with who paid it. */
export function confirmedLine(line: PreviewLine, allocations: Allocation[]) {
  const { suggestions: _suggestions, alreadyRecorded: _recorded, ...fields } = line;
  return { ...fields, allocations };
}
