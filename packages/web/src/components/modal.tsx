/** A Bootstrap modal rendered by React (no Bootstrap JS). `staticBackdrop` ignores backdrop clicks. */
import { useEffect, useId, type FormEvent, type ReactNode } from 'react';

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

  useEffect(() => {
    document.body.classList.add('modal-open');
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !staticBackdrop) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.body.classList.remove('modal-open');
      document.removeEventListener('keydown', onKey);
    };
  }, [onClose, staticBackdrop]);

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
        <button type="button" className="btn-close" aria-label="Close" onClick={onClose} />
      </div>
      <div className="modal-body">{children}</div>
      <div className="modal-footer">{footer}</div>
    </>
  );

  return (
    <>
      <div
        className="modal fade show d-block"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onMouseDown={(event) => {
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
      </div>
      <div className="modal-backdrop fade show" />
    </>
  );
}

/** The footer of a form modal: Cancel, and the submit button (Save unless told otherwise). */
export function FormFooter({ onCancel, disabled = false, submitLabel = 'Save' }: { onCancel: () => void; disabled?: boolean; submitLabel?: string }) {
  return (
    <>
      <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={disabled}>
        {submitLabel}
      </button>
    </>
  );
}
