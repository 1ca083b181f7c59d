import type { ReactNode } from 'react';
import type { QueueItem } from '#src/features/forum/index.ts';
import { CsrfField, FieldNotes, Hidden, describedBy } from '#views/kit/form.tsx';
import { useHref } from '#views/layout/page-context.tsx';

/**
 * What the moderators' page (/forum/moderation) and the staff's forum area (/admin/forum) share: the
 * form with one text area (a reason or a note) and the card of an item waiting for approval.
 */

/** A form with one text area (a reason or a note) and its button; its message beside it, what was typed kept. */
export function ReasonForm({
  action,
  id,
  name,
  label,
  button,
  value = '',
  error,
  required = false,
  secondary = false,
  fields = {},
}: {
  action: string;
  id: string;
  name: string;
  label: string;
  button: string;
  value?: string;
  error?: string;
  required?: boolean;
  secondary?: boolean;
  fields?: Record<string, string | null | undefined>;
}) {
  const href = useHref();
  return (
    <form method="post" action={href(action)} className="stack" noValidate>
      <CsrfField />
      {Object.entries(fields).map(([n, v]) => (
        <Hidden key={n} name={n} value={v} />
      ))}
      <div className={error ? 'field field-invalid' : 'field'}>
        <label htmlFor={id}>{label}</label>
        <textarea id={id} name={name} rows={2} required={required} defaultValue={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error)} />
        <FieldNotes id={id} error={error} />
      </div>
      <p>
        <button type="submit" className={secondary ? 'button button-secondary' : 'button'}>
          {button}
        </button>
      </p>
    </form>
  );
}

/** The key of a queue item (`post-12`, `reply-3`), also its card's id `queue-{key}`. */
export const queueKey = (item: Pick<QueueItem, 'targetKind' | 'id'>) => `${item.targetKind}-${item.id}`;

/**
 * The card of a post or reply waiting for approval: a heading, a line on who wrote it, when and why it
 * waits, its text, then the page's own actions.
 */
export function QueueItemCard({
  item,
  heading,
  level = 3,
  meta,
  before,
  children,
}: {
  item: QueueItem;
  heading: ReactNode;
  level?: 2 | 3;
  meta: ReactNode;
  before?: ReactNode;
  children: ReactNode;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <li className="card" id={`queue-${queueKey(item)}`}>
      <Heading className={level === 2 ? 'h3' : undefined}>{heading}</Heading>
      {before}
      {meta}
      <div className="forum-body forum-staff-body" dangerouslySetInnerHTML={{ __html: item.bodyHtml }} />
      {children}
    </li>
  );
}
