import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { SetupReminders } from './setup-reminders.tsx';

beforeAll(async () => {
  await loadLocale('ms');
  await loadLocale('en');
});
afterEach(() => i18n.activate('en'));

/** The plan a new owner has: paused, 3 days before, on the day, every 7 days overdue up to 3. */
const plan: ReminderPlan = {
  enabled: false,
  daysBefore: 3,
  onDueDate: true,
  overdueEveryDays: 7,
  overdueMax: 3,
  attachPdf: false,
  timeZone: 'Asia/Kuala_Lumpur',
};

describe('the first run’s reminders question', () => {
  it('asks whether to send, the plan they would follow told under it', () => {
    const answers: boolean[] = [];
    render(<SetupReminders plan={plan} send={false} onChange={(send) => answers.push(send)} />);
    const toggle = screen.getByRole('switch', {
      name: 'Send payment reminders to clients who owe you',
    });
    expect(toggle).not.toBeChecked();
    expect(toggle).toHaveAccessibleDescription(
      'They follow this plan: 3 days before the due date, on the due date, and every 7 days while overdue (up to 3 times). You can change the days in Settings.',
    );
    fireEvent.click(toggle);
    expect(answers).toEqual([true]);
  });

  it('tells only the days the plan has, in the page’s language', () => {
    i18n.activate('ms');
    render(
      <SetupReminders
        plan={{ ...plan, daysBefore: null, overdueEveryDays: 14, overdueMax: 1 }}
        send
        onChange={() => undefined}
      />,
    );
    expect(screen.getByRole('switch')).toBeChecked();
    expect(screen.getByRole('switch')).toHaveAccessibleDescription(
      'Peringatan mengikut pelan ini: pada tarikh akhir dan setiap 14 hari semasa tertunggak (hingga 1 kali). Anda boleh menukar harinya dalam Tetapan.',
    );
  });

  it('says so when the plan would send none', () => {
    render(
      <SetupReminders
        plan={{ ...plan, daysBefore: null, onDueDate: false, overdueMax: 0 }}
        send={false}
        onChange={() => undefined}
      />,
    );
    expect(screen.getByRole('switch')).toHaveAccessibleDescription(
      'The plan sends none yet: choose its days in Settings.',
    );
  });
});
