import { addDays } from '../../../shared/dates.ts';
import type { ReminderPlan } from '../../../shared/schemas/reminders.ts';

export type ScheduleRules = Pick<
  ReminderPlan,
  'daysBefore' | 'onDueDate' | 'overdueEveryDays' | 'overdueMax'
>;

/** What the schedule needs of an unpaid charge. */
export interface OpenCharge {
  entryId: number;
  /** Its due date, or the day it was entered when it has none. */
  dueOn: string;
}

export interface ScheduledStep {
  entryId: number;
  step: string;
  /** The day the step falls due. */
  on: string;
}

/** A step's key among those already recorded for a client. */
export const stepKey = (entryId: number, step: string) => `${entryId}:${step}`;

/** A charge's steps in the order they fall due. */
function stepsOf(dueOn: string, rules: ScheduleRules): { step: string; on: string }[] {
  const steps: { step: string; on: string }[] = [];
  if (rules.daysBefore !== null)
    steps.push({ step: 'before', on: addDays(dueOn, -rules.daysBefore) });
  if (rules.onDueDate) steps.push({ step: 'due', on: dueOn });
  if (rules.overdueEveryDays !== null)
    for (let count = 1; count <= rules.overdueMax; count += 1)
      steps.push({ step: `overdue-${count}`, on: addDays(dueOn, count * rules.overdueEveryDays) });
  return steps;
}

/**
 * The steps due `today` for one client's unpaid charges: for each charge only the latest step
 * that has come, and only when neither it nor a later one is recorded. The earlier steps that
 * came meanwhile (the server was off) are skipped, so a client never gets a burst.
 */
export function dueSteps(
  charges: readonly OpenCharge[],
  rules: ScheduleRules,
  today: string,
  recorded: ReadonlySet<string>,
): { send: ScheduledStep[]; skip: ScheduledStep[] } {
  const send: ScheduledStep[] = [];
  const skip: ScheduledStep[] = [];
  for (const charge of charges) {
    const steps = stepsOf(charge.dueOn, rules);
    const come = steps.filter((step) => step.on <= today);
    const latest = come.at(-1);
    if (!latest) continue;
    const latestIndex = come.length - 1;
    if (
      steps.some(
        (step, index) => index >= latestIndex && recorded.has(stepKey(charge.entryId, step.step)),
      )
    )
      continue;
    send.push({ entryId: charge.entryId, ...latest });
    for (const earlier of come.slice(0, -1))
      if (!recorded.has(stepKey(charge.entryId, earlier.step)))
        skip.push({ entryId: charge.entryId, ...earlier });
  }
  return { send, skip };
}

/**
 * The steps that will be sent from `today` to `days` later if nothing is paid meanwhile: today's
 * as `dueSteps` says, then each later step on its day.
 */
export function upcomingSteps(
  charges: readonly OpenCharge[],
  rules: ScheduleRules,
  today: string,
  recorded: ReadonlySet<string>,
  days: number,
): ScheduledStep[] {
  const last = addDays(today, days);
  const upcoming = [...dueSteps(charges, rules, today, recorded).send];
  for (const charge of charges)
    for (const step of stepsOf(charge.dueOn, rules))
      if (step.on > today && step.on <= last && !recorded.has(stepKey(charge.entryId, step.step)))
        upcoming.push({ entryId: charge.entryId, ...step });
  return upcoming.sort((a, b) => (a.on === b.on ? a.entryId - b.entryId : a.on < b.on ? -1 : 1));
}

/**
 * The first day after `today` on which one of these charges has a step to send if nothing is
 * paid meanwhile (`dueSteps` would send it then); null when none has a step left.
 */
export function nextStepDay(
  charges: readonly OpenCharge[],
  rules: ScheduleRules,
  today: string,
  recorded: ReadonlySet<string>,
): string | null {
  let next: string | null = null;
  for (const charge of charges) {
    const steps = stepsOf(charge.dueOn, rules);
    const lastRecorded = steps.findLastIndex((step) =>
      recorded.has(stepKey(charge.entryId, step.step)),
    );
    const coming = steps.find((step, index) => index > lastRecorded && step.on > today);
    if (coming && (next === null || coming.on < next)) next = coming.on;
  }
  return next;
}

/** The first moment of `day` (YYYY-MM-DD) in `timeZone`, as epoch milliseconds. */
export function startOfDayIn(timeZone: string, day: string): number {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  let start = midnightUtc;
  // The zone's offset at the guess, twice: the first guess may sit across a change of offset.
  for (let pass = 0; pass < 2; pass += 1) start = midnightUtc - offsetMs(timeZone, start);
  // Where clocks go forward at midnight, the day begins later than its midnight.
  while (dayIn(timeZone, start) < day) start += 15 * 60_000;
  return start;
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`. */
function offsetMs(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((item) => item.type === type)?.value ?? 0);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(at / 1000) * 1000;
}

/** Today's date in `timeZone` as YYYY-MM-DD. */
export function dayIn(timeZone: string, at: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Where the steps are retried after a failed send: then the reminder is given up. */
export const retryDelaysMs = [5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
