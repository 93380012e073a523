import { utcDay } from '../../../shared/dates.ts';
import {
  exportFileSchema,
  exportFormat,
  exportVersion,
  type ExportFile,
} from '../../../shared/schemas/restore.ts';
import { AppError } from '../../errors.ts';
import type { MessageValues, Text } from '../../i18n.ts';
import type { RestorePlan } from './restore-plan.ts';
import {
  recordedSign,
  type EntryKind,
  type PaymentMethod,
  type RecordedKind,
} from '../../../shared/schemas/ledger.ts';

const namedInMessage = 5;
const namedInFields = 50;

type Problem = [where: string, what: Text];
const problem = (where: string, text: string, values?: MessageValues): Problem => [
  where,
  values ? { text, values } : { text },
];

function refuse(problems: Problem[]): never {
  const shown = problems.slice(0, namedInMessage).map(([where, what]) => ({
    text: /[.!?]$/.test(what.text) ? '{where}: {problem}' : '{where}: {problem}.',
    values: { where, problem: what },
  }));
  const more = problems.length - namedInMessage;
  throw new AppError(
    400,
    'validation',
    more > 0
      ? 'This file cannot be restored: {problems} (and {count} more)'
      : 'This file cannot be restored: {problems}',
    {
      values: { problems: shown, count: more },
      fields: Object.fromEntries(problems.slice(0, namedInFields)),
    },
  );
}

function pathText(path: readonly PropertyKey[]): string {
  return (
    path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '') || 'file'
  );
}

function checkFormat(body: unknown): void {
  const head = body as { format?: unknown; version?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== exportFormat)
    refuse([
      problem(
        'format',
        'this is not a Balance export (a file from "Download all my data" says "{format}")',
        { format: exportFormat },
      ),
    ]);
  if (typeof head.version === 'number' && head.version > exportVersion)
    refuse([
      problem(
        'version',
        'the file is export version {version}, written by a newer Balance; this one reads up to version {supported}',
        { version: head.version, supported: exportVersion },
      ),
    ]);
}

// A file with another sign than the API writes would restore a payment that raises what is owed.
const wrongSign: Record<RecordedKind, Text> = {
  charge: { text: 'a charge adds to what the client owes: its amount must be above 0' },
  payment: { text: 'a payment takes from what the client owes: its amount must be below 0' },
  credit: { text: 'a credit takes from what the client owes: its amount must be below 0' },
};
const isRecordedKind = (kind: EntryKind): kind is RecordedKind => Object.hasOwn(recordedSign, kind);

function crossCheck(file: ExportFile): Problem[] {
  const problems: Problem[] = [];
  const clients = new Map<string, { index: number; currency: string; balance: number }>();
  file.clients.forEach((client, index) => {
    if (clients.has(client.id))
      problems.push(problem(`clients[${index}].id`, 'appears twice in the file'));
    clients.set(client.id, { index, currency: client.currency, balance: client.balance });
  });
  if (file.version >= 2 && file.entries === undefined)
    problems.push(problem('entries', 'missing: an export of version 2 carries the ledger'));
  // A void may come first: an entry dated tomorrow (the browser's day) can be voided today.
  const entries = new Map<
    number,
    { clientId: string; kind: string; amount: number; voided: boolean }
  >();
  const sums = new Map<string, number>();
  (file.entries ?? []).forEach((entry, index) => {
    const where = `entries[${index}]`;
    if (entries.has(entry.id)) problems.push(problem(`${where}.id`, 'appears twice in the file'));
    if (!clients.has(entry.clientId))
      problems.push(
        problem(`${where}.clientId`, 'no client {id} in the file', { id: entry.clientId }),
      );
    if (entry.kind !== 'void' && entry.voidOf !== null)
      problems.push(problem(`${where}.voidOf`, 'Only a void names another entry.'));
    if (isRecordedKind(entry.kind) && Math.sign(entry.amount) !== recordedSign[entry.kind])
      problems.push([`${where}.amount`, wrongSign[entry.kind]]);
    if (entry.kind !== 'payment' && entry.method !== undefined && entry.method !== null)
      problems.push(problem(`${where}.method`, 'Only a payment has a method.'));
    entries.set(entry.id, {
      clientId: entry.clientId,
      kind: entry.kind,
      amount: entry.amount,
      voided: false,
    });
    sums.set(entry.clientId, (sums.get(entry.clientId) ?? 0) + entry.amount);
  });
  // A correction may come first too: the file lists each client's entries by their dates.
  (file.entries ?? []).forEach((entry, index) => {
    if (entry.corrects === undefined || entry.corrects === null) return;
    const where = `entries[${index}].corrects`;
    const corrected = entries.get(entry.corrects);
    if (!corrected) problems.push(problem(where, 'a correction must name an entry of the file'));
    else if (corrected.clientId !== entry.clientId)
      problems.push(problem(where, "names an entry of another client's"));
    else if (corrected.kind === 'void' || entry.kind === 'void')
      problems.push(problem(where, 'a void neither corrects nor is corrected'));
  });
  (file.entries ?? []).forEach((entry, index) => {
    if (entry.kind !== 'void') return;
    const where = `entries[${index}].voidOf`;
    const voided = entry.voidOf === null ? undefined : entries.get(entry.voidOf);
    if (!voided) problems.push(problem(where, 'a void must name an entry of the file'));
    else if (voided.clientId !== entry.clientId)
      problems.push(problem(where, "names an entry of another client's"));
    else if (voided.kind === 'void') problems.push(problem(where, 'a void cannot be voided'));
    else if (voided.voided) problems.push(problem(where, 'that entry is voided twice'));
    else {
      voided.voided = true;
      if (entry.amount !== -voided.amount)
        problems.push(
          problem(
            `entries[${index}].amount`,
            'a void reverses the entry it names: its amount must be {amount}',
            { amount: -voided.amount },
          ),
        );
    }
  });
  const pairs = new Set<string>();
  (file.paymentTargets ?? []).forEach((target, index) => {
    const where = `paymentTargets[${index}]`;
    const pair = `${target.paymentId} ${target.chargeId}`;
    if (pairs.has(pair)) problems.push(problem(where, 'appears twice in the file'));
    pairs.add(pair);
    const payment = entries.get(target.paymentId);
    const charge = entries.get(target.chargeId);
    if (!payment || payment.amount >= 0 || payment.kind === 'void')
      problems.push(problem(`${where}.paymentId`, 'must name a payment or credit of the file'));
    if (!charge || charge.amount <= 0 || charge.kind === 'void')
      problems.push(problem(`${where}.chargeId`, 'must name an amount owed of the file'));
    else if (payment && payment.clientId !== charge.clientId)
      problems.push(problem(`${where}.chargeId`, "names an entry of another client's"));
  });
  const batches = new Set<string>();
  (file.bankBatches ?? []).forEach((batch, index) => {
    if (batches.has(batch.id))
      problems.push(problem(`bankBatches[${index}].id`, 'appears twice in the file'));
    batches.add(batch.id);
  });
  const lines = new Set<string>();
  (file.bankLines ?? []).forEach((line, index) => {
    if (lines.has(line.lineId))
      problems.push(problem(`bankLines[${index}].lineId`, 'appears twice in the file'));
    lines.add(line.lineId);
    if (!batches.has(line.batchId))
      problems.push(
        problem(`bankLines[${index}].batchId`, 'no bank import {id} in the file', {
          id: line.batchId,
        }),
      );
  });
  const payers = new Set<string>();
  (file.bankPayerRules ?? []).forEach((rule, index) => {
    if (payers.has(rule.payerKey))
      problems.push(problem(`bankPayerRules[${index}].payerKey`, 'appears twice in the file'));
    payers.add(rule.payerKey);
    if (rule.clientId !== null && !clients.has(rule.clientId))
      problems.push(
        problem(`bankPayerRules[${index}].clientId`, 'no client {id} in the file', {
          id: rule.clientId,
        }),
      );
    if (rule.batchId !== undefined && !batches.has(rule.batchId))
      problems.push(
        problem(`bankPayerRules[${index}].batchId`, 'no bank import {id} in the file', {
          id: rule.batchId,
        }),
      );
  });
  const layouts = new Set<string>();
  (file.bankLayouts ?? []).forEach((layout, index) => {
    if (layouts.has(layout.key))
      problems.push(problem(`bankLayouts[${index}].key`, 'appears twice in the file'));
    layouts.add(layout.key);
  });
  if (file.entries)
    for (const [id, client] of clients) {
      const sum = sums.get(id) ?? 0;
      if (sum !== client.balance)
        problems.push(
          problem(
            `clients[${client.index}].balance`,
            "is {balance} but the client's entries add up to {sum}",
            { balance: client.balance, sum },
          ),
        );
    }
  return problems;
}

const time = (iso: string) => Date.parse(iso);

/**
 * A payment's method as the file gives it; a file from before methods (version 5 or older) gives
 * none, and its payments are restored as migration 0041 left them: a bank statement's as a bank
 * transfer, any other without a method.
 */
function methodOf(entry: {
  kind: EntryKind;
  bankLineId?: string | null | undefined;
  method?: PaymentMethod | null | undefined;
}): PaymentMethod | null {
  if (entry.kind !== 'payment') return null;
  if (entry.method !== undefined && entry.method !== null) return entry.method;
  return entry.bankLineId === undefined || entry.bankLineId === null ? null : 'bank_transfer';
}

/** Each early void moved just after its entry, so the restore can link it. */
function voidsAfterTheirEntries<Entry extends { id: number; voidOf: number | null }>(
  entries: readonly Entry[],
): Entry[] {
  const seen = new Set<number>();
  const waiting = new Map<number, Entry>();
  const ordered: Entry[] = [];
  for (const entry of entries) {
    if (entry.voidOf !== null && !seen.has(entry.voidOf)) {
      waiting.set(entry.voidOf, entry);
      continue;
    }
    ordered.push(entry);
    seen.add(entry.id);
    const reversal = waiting.get(entry.id);
    if (reversal) {
      waiting.delete(entry.id);
      ordered.push(reversal);
      seen.add(reversal.id);
    }
  }
  return ordered;
}

/** A version-1 file's balances become opening entries, as the ledger's migration did. */
export function readExportFile(body: unknown): RestorePlan {
  checkFormat(body);
  const parsed = exportFileSchema.safeParse(body);
  if (!parsed.success)
    refuse(parsed.error.issues.map((issue) => problem(pathText(issue.path), issue.message)));
  const file = parsed.data;
  const problems = crossCheck(file);
  if (problems.length > 0) refuse(problems);

  const fromBalances = file.entries === undefined;
  const entries: RestorePlan['entries'] = !file.entries
    ? file.clients
        .filter((client) => client.balance !== 0)
        .map((client, index) => ({
          fileId: index + 1,
          clientId: client.id,
          kind: 'opening' as const,
          amount: client.balance,
          currency: client.currency,
          date: utcDay(time(client.updatedAt)),
          dueDate: null,
          note: '',
          voidOf: null,
          createdAt: time(client.updatedAt),
        }))
    : voidsAfterTheirEntries(file.entries).map(({ id, enteredAt, reference, ...entry }) => ({
        ...entry,
        reference: reference ?? '',
        bankLineId: entry.bankLineId ?? null,
        method: methodOf(entry),
        fileId: id,
        createdAt: time(enteredAt),
      }));
  return {
    version: file.version,
    exportedAt: file.exportedAt ?? null,
    exportedFrom: file.account?.email ?? null,
    openingsFromBalances: fromBalances ? entries.length : 0,
    clients: file.clients.map(({ createdAt, updatedAt, language, reminders, ...client }) => ({
      ...client,
      // Version 6 on; '' for what a file leaves out.
      company: client.company ?? '',
      addressLine1: client.addressLine1 ?? '',
      addressLine2: client.addressLine2 ?? '',
      city: client.city ?? '',
      postcode: client.postcode ?? '',
      country: client.country ?? '',
      taxId: client.taxId ?? '',
      notes: client.notes ?? '',
      createdAt: time(createdAt),
      updatedAt: time(updatedAt),
      language: language ?? null,
      reminders: reminders ?? true,
    })),
    entries,
    // Version 7 on; before it every payment settled the oldest first.
    targets: file.paymentTargets ?? [],
    history: file.history.map((event) => ({
      clientId: event.clientId,
      action: event.action,
      at: time(event.at),
      version: event.version,
      before: event.before,
      after: event.after,
      entry: event.entry ?? null,
      reminder: event.reminder ?? null,
      member: event.member ?? null,
      closing: event.closing ?? null,
      by: event.by ?? null,
    })),
    settings: {
      preferences: file.settings.preferences,
      rates: file.settings.rates,
      business: file.settings.business,
      // Version 9 on: the file's book stays closed up to the same day.
      lockDate: file.settings.lockDate ?? null,
    },
    reminderPlan: file.settings.reminderPlan ?? null,
    bank: {
      batches: (file.bankBatches ?? []).map((batch) => ({
        ...batch,
        createdAt: time(batch.createdAt),
        undoneAt: batch.undoneAt === null ? null : time(batch.undoneAt),
      })),
      lines: (file.bankLines ?? []).map((line) => ({ ...line, createdAt: time(line.createdAt) })),
      rules: (file.bankPayerRules ?? []).map((rule) => ({
        payerKey: rule.payerKey,
        clientId: rule.clientId,
        updatedAt: time(rule.updatedAt),
        batchId: rule.batchId ?? null,
        line: rule.line ?? null,
        learnedFrom: rule.learnedFrom ?? null,
      })),
      layouts: (file.bankLayouts ?? []).map((layout) => ({
        key: layout.key,
        mapping: JSON.stringify(layout.mapping),
        updatedAt: time(layout.updatedAt),
      })),
    },
  };
}
