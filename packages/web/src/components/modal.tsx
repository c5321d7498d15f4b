/**
 * A Bootstrap-styled modal on the native `<dialog>` opened with `showModal()`: the browser keeps
 * focus inside it and makes the page behind inert; when it closes, focus goes back to the element
 * that opened it. `staticBackdrop` ignores backdrop clicks and Escape.
 */
import { useEffect, useId, useLayoutEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { useT } from '../i18n/use-t';
import { AlertOutlet } from './alerts';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer: ReactNode;
  staticBackdrop?: boolean;
  /** When given, the body is a form and Enter submits it. */
  onSubmit?: () => void;
  size?: 'lg';
}

export function Modal({ title, onClose, children, footer, staticBackdrop = false, onSubmit, size }: ModalProps) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const latest = useRef({ onClose, staticBackdrop });
  latest.current = { onClose, staticBackdrop };

  // Open on mount; on unmount close and hand focus back to the opener (removing an open dialog
  // from the document would otherwise leave focus on the body).
  useLayoutEffect(() => {
    const element = dialog.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    document.body.classList.add('modal-open');
    return () => {
      document.body.classList.remove('modal-open');
      if (element.open) element.close();
      if (opener?.isConnected) opener.focus();
      else queueMicrotask(() => opener?.isConnected && opener.focus());
    };
  }, []);

  useEffect(() => {
    const element = dialog.current!;
    // Escape fires `cancel`: the parent decides whether the dialog goes (it unmounts it).
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (!latest.current.staticBackdrop) latest.current.onClose();
    };
    element.addEventListener('cancel', onCancel);
    return () => element.removeEventListener('cancel', onCancel);
  }, []);

  const t = useT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit?.();
  };

  const content = (
    <>
      <div className="modal-header">
        <h2 className="modal-title fs-5" id={titleId}>
          {title}
        </h2>
        <button type="button" className="btn-close" aria-label={t('common.close')} onClick={onClose} />
      </div>
      <div className="modal-body">
        <AlertOutlet />
        {children}
      </div>
      <div className="modal-footer">{footer}</div>
    </>
  );

  return (
    <dialog
      ref={dialog}
      className="modal portal-dialog"
      aria-labelledby={titleId}
      onMouseDown={(event) => {
        // The dialog fills the viewport; a press on it outside the content is on the backdrop.
        if (event.target === event.currentTarget && !staticBackdrop) onClose();
      }}
    >
      <div className={`modal-dialog modal-dialog-scrollable${size ? ` modal-${size}` : ''}`}>
        {onSubmit ? (
          <form className="modal-content" onSubmit={submit}>
            {content}
          </form>
        ) : (
          <div className="modal-content">{content}</div>
        )}
      </div>
    </dialog>
  );
}

/** The footer of a form modal: Cancel, and the submit button (Save unless told otherwise). */
export function FormFooter({ onCancel, disabled = false, submitLabel }: { onCancel: () => void; disabled?: boolean; submitLabel?: string }) {
  const t = useT();
  return (
    <>
      <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
      <button type="submit" className="btn btn-primary" disabled={disabled}>
        {submitLabel ?? t('common.save')}
      </button>
    </>
  );
}
