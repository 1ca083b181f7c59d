import type { ReactNode } from 'react';
import type { RoundupAnswerView } from '#src/features/expert-panels/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { MemberAvatar as ForumAvatar } from '#views/kit/member-avatar.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/**
 * The frame of the roundups' staff pages (/admin/expert-panels/roundups): the heading, the expert
 * panels' sub-navigation (the panels' own pages and the roundups), and a refused form's message.
 */

/** A form that came back refused: what was typed, the messages by field, the form's own message. */
export type RoundupFormState = { values: Record<string, string>; errors: Record<string, string> };

export function RoundupFrame({ heading, error, children }: { heading: string; error?: string; children: ReactNode }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="page-admin ep-roundups">
      <nav aria-label={t('expertPanelsRoundups.nav.label')}>
        <ul className="board-links">
          <li>
            <a href={href('/admin/expert-panels')}>{t('expertPanelsRoundups.nav.panels')}</a>
          </li>
          <li>
            <a href={href('/admin/expert-panels/roundups')} aria-current="page">
              {t('expertPanelsRoundups.nav.roundups')}
            </a>
          </li>
        </ul>
      </nav>
      <h1>{heading}</h1>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {children}
    </section>
  );
}

/** A member's face, name, company and job as the roundup shows them (the snapshot). */
export function RoundupMember({ answer, as: Tag = 'p' }: { answer: RoundupAnswerView; as?: 'p' | 'h3' }) {
  const m = answer.member;
  const role = [m.jobTitle, m.companyName].filter(Boolean).join(', ');
  return (
    <div className="forum-author ep-roundup-member">
      <ForumAvatar member={m} />
      <div>
        <Tag className="ep-roundup-name">{m.name}</Tag>
        {role ? <p className="muted">{role}</p> : null}
      </div>
    </div>
  );
}
