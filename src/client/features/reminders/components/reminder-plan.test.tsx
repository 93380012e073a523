import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { fireEvent, render as renderInDom, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { FlashProvider } from '../../../components/flash.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { i18n, loadLocale } from '../../../i18n/i18n.ts';
import { ReminderPlanForm } from './reminder-plan.tsx';

beforeAll(() => loadLocale('en'));
afterEach(() => i18n.activate('en'));

const render = (ui: ReactNode) =>
  renderInDom(
    <MemoryRouter>
      <FlashProvider>{ui}</FlashProvider>
    </MemoryRouter>,
  );

const plan: ReminderPlan = {
  enabled: false,
  daysBefore: null,
  onDueDate: true,
  overdueEveryDays: 7,
  overdueMax: 3,
  attachPdf: false,
  timeZone: 'Asia/Kuala_Lumpur',
};

describe('the reminder plan form', () => {
  it('sends the plan typed, an empty number meaning none', async () => {
    const saved: ReminderPlan[] = [];
    render(<ReminderPlanForm plan={plan} save={async (body) => saved.push(body)} />);
    expect(screen.getByRole('switch', { name: 'Send reminders' })).not.toBeChecked();
    fireEvent.click(screen.getByRole('switch', { name: 'Send reminders' }));
    fireEvent.change(screen.getByLabelText('Days before the due date'), {
      target: { value: ' 3 ' },
    });
    fireEvent.change(screen.getByLabelText('Every this many days while overdue'), {
      target: { value: '' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save reminder plan' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({ ...plan, enabled: true, daysBefore: 3, overdueEveryDays: null });
  });

  it('names what is wrong by field, in the page’s language, and keeps what was typed', async () => {
    await loadLocale('ko');
    i18n.activate('ko');
    const saved: ReminderPlan[] = [];
    render(<ReminderPlanForm plan={plan} save={async (body) => saved.push(body)} />);
    const daysBefore = screen.getByLabelText('만기일 며칠 전');
    fireEvent.change(daysBefore, { target: { value: '61' } });
    fireEvent.change(screen.getByLabelText('연체 알림 최대 횟수'), { target: { value: 'two' } });
    fireEvent.click(screen.getByRole('button', { name: '알림 계획 저장' }));
    expect(await screen.findByText('1에서 60 사이의 일수를 정수로 입력하세요.')).toBeVisible();
    expect(screen.getByText('0에서 20 사이의 정수를 입력하세요.')).toBeVisible();
    expect(daysBefore).toHaveValue('61');
    expect(daysBefore).toHaveAttribute('aria-invalid', 'true');
    expect(saved).toHaveLength(0);
  });

  it('shows the field the server refuses under it, the form as typed', async () => {
    render(
      <ReminderPlanForm
        plan={plan}
        save={() =>
          Promise.reject(
            new ApiError(400, 'validation', 'Check the fields.', {
              overdueEveryDays: 'Enter a whole number of days from 1 to 90.',
            }),
          )
        }
      />,
    );
    const every = screen.getByLabelText('Every this many days while overdue');
    fireEvent.change(every, { target: { value: '14' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save reminder plan' }));
    expect(await screen.findByText('Enter a whole number of days from 1 to 90.')).toBeVisible();
    expect(every).toHaveValue('14');
    expect(every).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers this device’s time zone first, and keeps the one saved', () => {
    render(<ReminderPlanForm plan={plan} save={async () => undefined} />);
    const select = screen.getByLabelText('Time zone');
    const device = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const options = [...select.querySelectorAll('option')];
    expect(options[0]).toHaveValue(device);
    expect(options[0]).toHaveTextContent(`${device} (this device)`);
    expect(select).toHaveValue('Asia/Kuala_Lumpur');
  });
});
