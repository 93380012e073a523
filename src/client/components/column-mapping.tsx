import type { ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * Which column of a CSV file holds each field: one select per field listing the file's header
 * (used by the client import and the bank statement import).
 */
export function ColumnMapping<Field extends string>({
  idPrefix,
  fields,
  labels,
  header,
  mapping,
  onChange,
  invalid = {},
  columnClassName = 'col-6 col-md-4',
}: {
  idPrefix: string;
  fields: readonly Field[];
  labels: Readonly<Record<Field, string>>;
  header: readonly string[];
  mapping: Readonly<Record<Field, number | null>>;
  onChange: (field: Field, column: number | null) => void;
  /** A field's problem, shown under its select. */
  invalid?: Partial<Record<Field, ReactNode>>;
  columnClassName?: string;
}) {
  const { t } = useI18n();
  return (
    <div className="row g-2">
      {fields.map((field) => {
        const id = `${idPrefix}-${field}`;
        const problem = invalid[field];
        return (
          <div key={field} className={columnClassName}>
            <label htmlFor={id} className="form-label small mb-1">
              {labels[field]}
            </label>
            <select
              id={id}
              className={`form-select form-select-sm${problem ? ' is-invalid' : ''}`}
              value={mapping[field] ?? ''}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-error` : undefined}
              onChange={(event) =>
                onChange(field, event.target.value === '' ? null : Number(event.target.value))
              }
            >
              <option value="">{t('columns.none')}</option>
              {header.map((column, index) => (
                <option key={index} value={index}>
                  {column.trim() || t('columns.unnamed', { number: index + 1 })}
                </option>
              ))}
            </select>
            {problem && (
              <div id={`${id}-error`} className="invalid-feedback">
                {problem}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
