import type { ReactNode } from 'react';

/**
 * A list of rows: the dense way to show many things of one kind (topics, members, messages). Each row
 * has an optional lead (a face, an icon), a title (the link to the thing), a meta line, and a trail
 * (counts, badges, a quiet action). `unread` marks the row in weight and words, not colour alone.
 */
export function List({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ul className="list" aria-label={label}>
      {children}
    </ul>
  );
}

export function ListRow({
  title,
  href,
  lead,
  meta,
  trail,
  unread = false,
  className,
}: {
  title: ReactNode;
  href?: string;
  lead?: ReactNode;
  meta?: ReactNode;
  trail?: ReactNode;
  unread?: boolean;
  className?: string;
}) {
  const classes = ['list-row', unread ? 'list-row-unread' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <li className={classes}>
      {lead ? <span className="list-row-lead">{lead}</span> : null}
      <span className="list-row-main">
        <span className="list-row-title">{href ? <a href={href}>{title}</a> : title}</span>
        {meta ? <span className="list-row-meta">{meta}</span> : null}
      </span>
      {trail ? <span className="list-row-trail">{trail}</span> : null}
    </li>
  );
}
