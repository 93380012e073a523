import { useId, type ReactNode } from 'react';

/**
 * A section of the Settings page: a card with its heading and the one line that says what it is
 * for. Used by the settings' own sections and by the book's (people, closed periods).
 */
export function Section({
  title,
  help,
  children,
}: {
  title: string;
  help: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className="card mb-4" aria-labelledby={headingId}>
      <div className="card-header">
        <h2 id={headingId} className="h5 mb-0">
          {title}
        </h2>
      </div>
      <div className="card-body">
        <p className="form-text mt-0">{help}</p>
        {children}
      </div>
    </section>
  );
}
