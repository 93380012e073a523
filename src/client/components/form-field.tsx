import { useId, type InputHTMLAttributes } from 'react';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useI18n } from '../i18n/use-i18n.ts';

interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError | undefined;
  /** The invalid style shows once the field has been touched (or the form submitted). */
  showError: boolean;
  /** Where the placeholder says what to type (a small modal): the label is for screen readers. */
  hideLabel?: boolean;
  small?: boolean;
  /** Given, the field is a textarea of that many lines (the input's other attributes do not apply). */
  rows?: number;
}

export function FormField({
  label,
  registration,
  error,
  showError,
  hideLabel = false,
  small = false,
  rows,
  className,
  ...input
}: FormFieldProps) {
  const id = useId();
  const { message } = useI18n();
  const invalid = showError && error !== undefined;
  const control = {
    className: `form-control${small ? ' form-control-sm' : ''}${invalid ? ' is-invalid' : ''}`,
    'aria-invalid': invalid,
    'aria-describedby': invalid ? `${id}-error` : undefined,
  };
  return (
    <div className={className ?? 'mb-3'}>
      <label
        htmlFor={id}
        className={hideLabel ? 'visually-hidden' : `form-label${small ? ' small mb-1' : ''}`}
      >
        {label}
      </label>
      {rows === undefined ? (
        <input id={id} {...control} {...input} {...registration} />
      ) : (
        <textarea id={id} rows={rows} {...control} {...registration} />
      )}
      {invalid && (
        <div id={`${id}-error`} className="invalid-feedback">
          {/* The shared schemas' messages are in English; the server's arrive translated. */}
          {message(error.message ?? '')}
        </div>
      )}
    </div>
  );
}

/** A shared schema's refusal, one message per field, said in the page's language. */
export function messagesByField<Field extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  say: (english: string) => string,
): Partial<Record<Field, string>> {
  return Object.fromEntries(
    issues.map((issue) => [String(issue.path[0]), say(issue.message)]),
  ) as Partial<Record<Field, string>>;
}
