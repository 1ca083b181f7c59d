/** The form kit every area's pages share: labelled fields with their hint and message, the CSRF field, hidden fields. */
import { usePage } from '#views/layout/page-context.tsx';

export type FieldError = string | undefined;

/** The ids a field's aria-describedby names: its message when there is one, its hint when it has one. */
export function describedBy(id: string, error?: FieldError, hint?: string): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

/** A field's hint and its message, with the ids describedBy names (for inputs, selects and textareas alike). */
export function FieldNotes({ id, error, hint }: { id: string; error?: FieldError; hint?: string }) {
  return (
    <>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A labelled input with its error next to it, tied by aria-describedby. */
export function Field({
  id,
  label,
  error,
  hint,
  ...input
}: { id: string; label: string; error?: FieldError; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} {...input} />
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}

export function CsrfField() {
  const { csrfToken } = usePage();
  return <input type="hidden" name="_csrf" value={csrfToken} />;
}

export function Hidden({ name, value }: { name: string; value: string | undefined | null }) {
  if (value === undefined || value === null || value === '') return null;
  return <input type="hidden" name={name} value={value} />;
}

/** A labelled textarea with its hint and its message, for a message (a post, a reply, an invitation's answer, a roundup's note). */
export function TextArea({ id, name, label, value, error, hint, rows = 8 }: { id: string; name: string; label: string; value: string; error?: string; hint?: string; rows?: number }) {
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <textarea id={id} name={name} rows={rows} defaultValue={value} aria-invalid={error ? true : undefined} aria-describedby={described} />
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
