import { describe, expect, it } from 'vitest';
import { dayIn, dueSteps, stepKey, upcomingSteps, type ScheduleRules } from './schedule.ts';

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
});
