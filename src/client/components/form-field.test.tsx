import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { describe, expect, it } from 'vitest';
import { statementSendFormSchema, type StatementSendForm } from '../../shared/schemas/statement.ts';
import { i18n } from '../i18n/i18n.ts';
import { FormField } from './form-field.tsx';

function SendForm() {
  const { register, handleSubmit, formState } = useForm<StatementSendForm>({
    resolver: zodResolver(statementSendFormSchema),
    defaultValues: { subject: 'May statement', message: '' },
  });
  const { errors, isSubmitted } = formState;
  return (
    <form noValidate aria-label="Send" onSubmit={(event) => void handleSubmit(() => {})(event)}>
      <FormField
        label="Subject"
        registration={register('subject')}
        error={errors.subject}
        showError={isSubmitted}
      />
      <FormField
        label="Message"
        rows={8}
        registration={register('message')}
        error={errors.message}
        showError={isSubmitted}
      />
    </form>
  );
}

describe('the form field', () => {
  it('is a labelled textarea of the given lines, with its error under it', async () => {
    render(
      <I18nProvider i18n={i18n}>
        <SendForm />
      </I18nProvider>,
    );
    const message = screen.getByLabelText('Message');
    expect(message.tagName).toBe('TEXTAREA');
    expect(message).toHaveAttribute('rows', '8');
    expect(screen.getByLabelText('Subject').tagName).toBe('INPUT');

    fireEvent.input(message, { target: { value: '  ' } });
    fireEvent.submit(screen.getByRole('form', { name: 'Send' }));

    // The shared schema's message, the one the server answers for the same text.
    await waitFor(() => expect(message).toHaveAttribute('aria-invalid', 'true'));
    expect(message).toHaveAccessibleDescription('Enter a message.');
    expect(message).toHaveValue('  ');
    expect(screen.getByLabelText('Subject')).toHaveAttribute('aria-invalid', 'false');
  });
});
