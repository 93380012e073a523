import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { BookOpen, Check, Plus } from 'lucide-react';
import type { BookSummary } from '../../../../shared/schemas/books.ts';
import { useFlash } from '../../../components/flash.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useSwitchBook } from '../api/books.ts';
import { NewBookForm } from './new-book-form.tsx';

/**
 * The navbar's menu of the person's books, shown only when they keep more than one: choosing one
 * makes it the session's book and shows its dashboard; "New book" starts another.
 */
export function BookSwitcher({
  current,
  books,
  onChosen,
}: {
  current: BookSummary;
  books: BookSummary[];
  /** Told when a choice is made, so the phone menu closes. */
  onChosen: () => void;
}) {
  const { t, message } = useI18n();
  const menuId = useId();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const switchBook = useSwitchBook();
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const root = useRef<HTMLLIElement>(null);

  // A click or focus elsewhere closes the menu.
  useEffect(() => {
    if (!open) return;
    const away = (event: Event) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('focusin', away);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('focusin', away);
    };
  }, [open]);

  const choose = (book: BookSummary) => {
    setOpen(false);
    onChosen();
    if (book.id === current.id) return;
    // Awaited, not a callback of mutate: the menu may be gone once the book has changed.
    switchBook
      .mutateAsync(book.id)
      .then(() => navigate('/'))
      .catch((error: unknown) => {
        if (error instanceof ApiError) showFlash(message(error.message), 'danger');
      });
  };

  return (
    <li ref={root} className="nav-item dropdown">
      <button
        type="button"
        className="nav-link btn btn-link d-flex align-items-center gap-1 dropdown-toggle text-break text-start"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('layout.books.switch', { name: current.name })}
        disabled={switchBook.isPending}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          // The navbar's own Esc (closing the phone menu) waits for the next one. i18n-ignore:
          if (event.key === 'Escape' && open) {
            event.stopPropagation();
            setOpen(false);
          }
        }}
      >
        <BookOpen size={16} className="icon" aria-hidden />
        <span className="book-switcher-name">{current.name}</span>
      </button>
      <ul
        id={menuId}
        className={`dropdown-menu dropdown-menu-end${open ? ' show' : ''}`}
        aria-label={t('layout.books.label')}
      >
        {books.map((book) => (
          <li key={book.id}>
            <button
              type="button"
              className="dropdown-item d-flex align-items-center gap-2 text-wrap"
              aria-current={book.id === current.id ? 'true' : undefined}
              onClick={() => choose(book)}
            >
              <Check
                size={14}
                className={`icon${book.id === current.id ? '' : ' invisible'}`}
                aria-hidden
              />
              <span className="text-break">{book.name}</span>
            </button>
          </li>
        ))}
        <li>
          <hr className="dropdown-divider" />
        </li>
        <li>
          <button
            type="button"
            className="dropdown-item d-flex align-items-center gap-2 text-wrap"
            onClick={() => {
              setOpen(false);
              onChosen();
              setCreating(true);
            }}
          >
            <Plus size={14} className="icon" aria-hidden />
            {t('layout.books.new')}
          </button>
        </li>
      </ul>
      <Modal open={creating} title={t('layout.books.new-title')} onClose={() => setCreating(false)}>
        {creating && (
          <NewBookForm
            label={t('layout.books.name')}
            submit={t('layout.books.create')}
            onDone={() => setCreating(false)}
          />
        )}
      </Modal>
    </li>
  );
}
