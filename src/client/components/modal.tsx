import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons beside Close, such as the confirming action. */
  actions?: ReactNode;
}

/**
 * The generic modal (300 × 200 pixels). Built on <dialog>.showModal(), which makes the rest of
 * the page inert, so focus stays inside while it is open; Esc, Close and the backdrop close it.
 */
export function Modal({ open, title, onClose, children, actions }: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { t } = useI18n();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      className="app-modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the dialog element itself, not its content, is a click on the backdrop.
        if (event.target === event.currentTarget) onClose();
      }}
      onKeyDown={(event) => {
        // The page behind is inert, but Tab past the last button would leave for the browser's own UI.
        if (event.key !== 'Tab') return; // i18n-ignore: a key's name
        const focusable = Array.from(
          event.currentTarget.querySelectorAll<HTMLElement>(
            'button:not([disabled]), a[href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
          ),
        );
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }}
    >
      <div className="app-modal-content">
        <h2 id={titleId} className="h6 mb-2">
          {title}
        </h2>
        <div className="app-modal-body">{children}</div>
        <div className="d-flex justify-content-end gap-2">
          <button type="button" className="btn btn-sm btn-secondary" onClick={onClose}>
            {t('common.close')}
          </button>
          {actions}
        </div>
      </div>
    </dialog>
  );
}
