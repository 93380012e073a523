import { describe, expect, it } from 'vitest';
import {
  dayIn,
  dueSteps,
  nextStepDay,
  startOfDayIn,
  stepKey,
  upcomingSteps,
  type ScheduleRules,
} from './schedule.ts';
import { addDays } from '../../../shared/dates.ts';

const rules: ScheduleRules = { daysBefore: 3, onDueDate: true, overdueEveryDays: 7, overdueMax: 3 };
const charge = { entryId: 1, dueOn: '2026-01-10' };
const none = new Set<string>();

describe('the reminder schedule', () => {
  it('sends nothing before the first step, then the step whose day has come', () => {
    expect(dueSteps([charge], rules, '2026-01-06', none).send).toEqual([]);
    expect(dueSteps([charge], rules, '2026-01-07', none)).toEqual({
      send: [{ entryId: 1, step: 'before', on: '2026-01-07' }],
      skip: [],
    });
    const recorded = new Set([stepKey(1, 'before')]);
    expect(dueSteps([charge], rules, '2026-01-09', recorded).send).toEqual([]);
    expect(dueSteps([charge], rules, '2026-01-10', recorded).send).toEqual([
      { entryId: 1, step: 'due', on: '2026-01-10' },
    ]);
  });

  it('after days off sends only the latest step that came and skips the earlier ones', () => {
    const { send, skip } = dueSteps([charge], rules, '2026-01-31', none);
    expect(send).toEqual([{ entryId: 1, step: 'overdue-3', on: '2026-01-31' }]);
    expect(skip.map((step) => step.step)).toEqual(['before', 'due', 'overdue-1', 'overdue-2']);
  });

  it('stops after the last overdue reminder, and never goes back to an earlier step', () => {
    expect(
      dueSteps([charge], rules, '2026-03-01', new Set([stepKey(1, 'overdue-3')])).send,
    ).toEqual([]);
    expect(
      dueSteps([charge], rules, '2026-01-17', new Set([stepKey(1, 'overdue-2')])).send,
    ).toEqual([]);
  });

  it('follows only the steps the plan has', () => {
    const overdueOnly = { daysBefore: null, onDueDate: false, overdueEveryDays: 10, overdueMax: 1 };
    expect(dueSteps([charge], overdueOnly, '2026-01-19', none).send).toEqual([]);
    expect(dueSteps([charge], overdueOnly, '2026-01-20', none).send).toEqual([
      { entryId: 1, step: 'overdue-1', on: '2026-01-20' },
    ]);
    const nothing = { daysBefore: null, onDueDate: false, overdueEveryDays: null, overdueMax: 3 };
    expect(dueSteps([charge], nothing, '2026-05-01', none).send).toEqual([]);
  });

  it('treats each charge on its own', () => {
    const later = { entryId: 2, dueOn: '2026-01-20' };
    expect(dueSteps([charge, later], rules, '2026-01-17', none).send).toEqual([
      { entryId: 1, step: 'overdue-1', on: '2026-01-17' },
      { entryId: 2, step: 'before', on: '2026-01-17' },
    ]);
  });

  it('previews today’s steps and each later one on its day', () => {
    const recorded = new Set([stepKey(1, 'before')]);
    expect(upcomingSteps([charge], rules, '2026-01-08', recorded, 30)).toEqual([
      { entryId: 1, step: 'due', on: '2026-01-10' },
      { entryId: 1, step: 'overdue-1', on: '2026-01-17' },
      { entryId: 1, step: 'overdue-2', on: '2026-01-24' },
      { entryId: 1, step: 'overdue-3', on: '2026-01-31' },
    ]);
    expect(upcomingSteps([charge], rules, '2026-01-08', recorded, 10)).toHaveLength(2);
  });

  it('reckons today in the owner’s time zone', () => {
    const evening = Date.parse('2026-01-01T20:00:00Z');
    expect(dayIn('Asia/Seoul', evening)).toBe('2026-01-02');
    expect(dayIn('America/Los_Angeles', evening)).toBe('2026-01-01');
    expect(dayIn('UTC', evening)).toBe('2026-01-01');
  });

  it('names the next day a step is sent, as dueSteps sends it on every day until then', () => {
    const later = { entryId: 2, dueOn: '2026-02-01' };
    const charges = [charge, later];
    // Each day from the first step to past the last: the day named is the first day that sends.
    const recorded = new Set<string>();
    let today = '2026-01-01';
    let expected = nextStepDay(charges, rules, today, recorded);
    expect(expected).toBe('2026-01-07');
    while (today < '2026-03-31') {
      today = addDays(today, 1);
      const { send, skip } = dueSteps(charges, rules, today, recorded);
      expect(send.length > 0).toBe(today === expected);
      for (const step of [...send, ...skip]) recorded.add(stepKey(step.entryId, step.step));
      if (send.length > 0) expected = nextStepDay(charges, rules, today, recorded);
    }
    // overdue-3 of the later charge (2026-02-22) was the last.
    expect(expected).toBeNull();
  });

  it('counts from the latest step recorded, whatever its day', () => {
    expect(nextStepDay([charge], rules, '2026-01-08', new Set([stepKey(1, 'due')]))).toBe(
      '2026-01-17',
    );
    expect(nextStepDay([charge], { ...rules, overdueEveryDays: null }, '2026-01-10', none)).toBe(
      null,
    );
  });

  it('finds where a day begins in a time zone, also where the clocks change that night', () => {
    for (const [zone, day, start] of [
      ['UTC', '2026-05-10', '2026-05-10T00:00:00Z'],
      ['Asia/Seoul', '2026-05-10', '2026-05-09T15:00:00Z'],
      ['Pacific/Kiritimati', '2026-05-10', '2026-05-09T10:00:00Z'],
      ['America/New_York', '2026-03-08', '2026-03-08T05:00:00Z'],
      ['America/New_York', '2026-03-09', '2026-03-09T04:00:00Z'],
      ['Europe/London', '2026-10-25', '2026-10-24T23:00:00Z'],
      // Clocks go from 00:00 to 01:00: the day begins at 01:00 local.
      ['America/Havana', '2026-03-08', '2026-03-08T05:00:00Z'],
    ] as const) {
      const at = startOfDayIn(zone, day);
      expect([zone, new Date(at).toISOString()]).toEqual([zone, start.replace('Z', '.000Z')]);
      expect(dayIn(zone, at)).toBe(day);
      expect(dayIn(zone, at - 1) < day).toBe(true);
    }
  });
});
