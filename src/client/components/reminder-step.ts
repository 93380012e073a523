import type { useI18n } from '../i18n/use-i18n.ts';

/**
 * A reminder's step as the owner reads it: "before the due date", "on the due date", "overdue 2
 * of 3" (the plan's K; a step recorded under a larger K than today's plan counts to itself;
 * without the plan, "overdue reminder 2").
 */
export function reminderStepText(
  step: string,
  overdueMax: number | null,
  t: ReturnType<typeof useI18n>['t'],
): string {
  if (step === 'before') return t('common.reminder-step.before');
  if (step === 'due') return t('common.reminder-step.due');
  const number = Number(/^overdue-(\d+)$/.exec(step)?.[1] ?? Number.NaN);
  if (Number.isNaN(number)) return step;
  if (overdueMax === null) return t('common.reminder-step.overdue-nth', { number });
  return t('common.reminder-step.overdue', { number, count: Math.max(number, overdueMax) });
}
