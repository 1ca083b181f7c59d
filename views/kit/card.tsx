import type { ReactNode } from 'react';

/**
 * A card: one self-contained thing on a surface of its own (an offer, a badge, a summary). Its title
 * is a heading at the level the page needs; `href` makes the title the card's link (the whole card is
 * not a link, so the text inside stays selectable and other links stay reachable).
 */
export function Card({
  title,
  level = 2,
  href,
  meta,
  footer,
  children,
  as: Tag = 'section',
  className,
}: {
  title?: ReactNode;
  level?: 2 | 3 | 4;
  href?: string;
  /** A line under the title (who, when, how many). */
  meta?: ReactNode;
  /** Actions at the card's foot (buttons, a link). */
  footer?: ReactNode;
  children?: ReactNode;
  as?: 'section' | 'article' | 'div' | 'li';
  className?: string;
}) {
  const Heading = `h${level}` as const;
  return (
    <Tag className={className ? `card ${className}` : 'card'}>
      {title ? <Heading className="card-title">{href ? <a href={href}>{title}</a> : title}</Heading> : null}
      {meta ? <p className="card-meta">{meta}</p> : null}
      {children}
      {footer ? <div className="card-footer">{footer}</div> : null}
    </Tag>
  );
}

/** Cards in a grid that fills the width (one column on a phone). */
export function CardGrid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ul className="cards plain" aria-label={label}>
      {children}
    </ul>
  );
}
