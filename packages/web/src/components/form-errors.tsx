/**
 * Errors where they happen (docs/web.md, Errors): the field the server named (`details.field`)
 * gets Bootstrap's `is-invalid` and the reason as feedback under it; `useAction({form})` fills it.
 */
import { useCallback, useId, useMemo, useState } from 'react';

export interface FormErrors {
  /** Names the form's alerts, so that its success replaces its complaints. */
  source: string;
  errors: Record<string, string>;
  mark: (field: string, message: string) => void;
  clear: () => void;
}

export function useFormErrors(): FormErrors {
  const source = useId();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mark = useCallback((field: string, message: string) => setErrors((current) => ({ ...current, [field]: message })), []);
  const clear = useCallback(() => setErrors({}), []);
  return useMemo(() => ({ source, errors, mark, clear }), [source, errors, mark, clear]);
}

/** The props an input takes for its field: invalid state and the feedback's id. */
export function fieldProps(form: FormErrors, field: string, className = 'form-control') {
  const message = form.errors[field];
  return {
    className: message ? `${className} is-invalid` : className,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': message ? `${form.source}-${field}-feedback` : undefined,
  };
}

/** The reason under the input, when the server named this field. */
export function FieldFeedback({ form, field }: { form: FormErrors; field: string }) {
  const message = form.errors[field];
  if (!message) return null;
  return (
    <div className="invalid-feedback" id={`${form.source}-${field}-feedback`}>
      {message}
    </div>
  );
}
