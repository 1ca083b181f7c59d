import { formatDate } from '#shared/format.ts';
import type { IntroductionView } from '#src/features/members/index.ts';
import type { IntroductionStatus, MemberSnapshot } from '#src/features/members/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Island } from '#views/layout/Island.tsx';
import { Tabs } from '#src/features/members/views/Directory.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** A request as the pages show it: the service's IntroductionView. */
export type IntroductionItem = IntroductionView;

export type ReasonLimits = { min: number; max: number };

/**
 * The "Request introduction" link for a member's profile or card: a link to the request page without
 * JavaScript, the request dialog with it (the island's script is included once per page).
 */
export function IntroduceLink({ userId, name }: { userId: number; name: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <Island
      name="IntroduceDialog"
      props={{
        href: href(`/profile/${userId}/introduce`),
        text: t('introductions.request.link'),
        hiddenSuffix: t('introductions.request.linkSuffix', { name }),
        labels: {
          close: t('introductions.request.close'),
          loading: t('introductions.request.loading'),
          failed: t('introductions.request.failed'),
          openPage: t('introductions.request.openPage'),
        },
      }}
    />
  );
}

const initialsOf = (m: MemberSnapshot) => `${m.firstName.slice(0, 1)}${m.lastName.slice(0, 1)}`.toUpperCase();

/** A member's face, name and work in a line: the request's target, the queue's two members. */
export function MemberLine({ member, link = true }: { member: MemberSnapshot; link?: boolean }) {
  const href = useHref();
  const work = [member.jobTitle, member.companyName].filter(Boolean).join(', ');
  return (
    <span className="intro-member">
      {member.avatar ? (
        <img className="avatar" src={member.avatar} alt="" width={40} height={40} />
      ) : (
        <span className="avatar avatar-initials" aria-hidden="true" data-initials={initialsOf(member)} />
      )}
      <span>
        {link ? <a href={href(`/profile/${member.id}`)}>{member.name}</a> : <strong>{member.name}</strong>}
        {member.displayPronouns && member.pronouns ? <span className="muted"> ({member.pronouns})</span> : null}
        {work ? <span className="intro-member-work">{work}</span> : null}
        {member.location ? <span className="intro-member-work muted">{member.location}</span> : null}
      </span>
    </span>
  );
}

/**
 * The request form: the same markup on the page and in the dialog (`headingLevel` 1 on the page, 2
 * in the dialog). The reason keeps what was typed; its message sits beside it.
 */
export function IntroduceForm({
  target,
  reason,
  error,
  limits,
  inDialog = false,
  openMessage,
}: {
  target: MemberSnapshot;
  reason: string;
  error?: string;
  limits: ReasonLimits;
  inDialog?: boolean;
  /** A request between the two is open already: this message and a link to the requests, no form. */
  openMessage?: string;
}) {
  const { t } = usePage();
  const href = useHref();
  const Heading = inDialog ? 'h2' : 'h1';
  return (
    <div className="introduce">
      <Heading id="introduce-heading">{t('introductions.request.heading', { name: target.name })}</Heading>
      <p>
        <MemberLine member={target} link={!inDialog} />
      </p>
      {openMessage ? (
        <>
          <Alert kind="info">{openMessage}</Alert>
          <p>
            <a href={href('/members/introductions')} data-introduce-focus="">
              {t('introductions.request.seeRequests')}
            </a>
          </p>
        </>
      ) : (
        <IntroduceFormBody target={target} reason={reason} error={error} limits={limits} inDialog={inDialog} />
      )}
    </div>
  );
}

function IntroduceFormBody({ target, reason, error, limits, inDialog }: { target: MemberSnapshot; reason: string; error?: string; limits: ReasonLimits; inDialog: boolean }) {
  const { t } = usePage();
  const href = useHref();
  const described = ['reason-hint', error ? 'reason-error' : null].filter(Boolean).join(' ');
  return (
    <>
      <p>{t('introductions.request.intro', { firstName: target.firstName })}</p>
      <form method="post" action={href(`/profile/${target.id}/introduce`)} className="stack" noValidate data-introduce-form="">
        <CsrfField />
        <div className={error ? 'field field-invalid' : 'field'}>
          <label htmlFor="reason">{t('introductions.request.reason', { firstName: target.firstName })}</label>
          <textarea
            id="reason"
            name="reason"
            rows={6}
            required
            maxLength={limits.max + 200}
            defaultValue={reason}
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
          />
          <p className="field-hint" id="reason-hint">
            {t('introductions.request.reasonHint', { min: limits.min, max: limits.max, firstName: target.firstName })}
          </p>
          {error ? (
            <p className="field-error" id="reason-error">
              {error}
            </p>
          ) : null}
        </div>
        <div className="button-row">
          <button type="submit" className="button">
            {t('introductions.request.submit')}
          </button>
          {inDialog ? (
            <button type="button" className="button button-secondary" data-introduce-cancel="">
              {t('introductions.request.cancel')}
            </button>
          ) : (
            <a className="button button-secondary" href={href(`/profile/${target.id}`)}>
              {t('introductions.request.cancel')}
            </a>
          )}
        </div>
      </form>
    </>
  );
}

/** The request page (works without JavaScript); `formError` is a message for the whole request (limits). */
export function IntroducePage({ target, reason, error, limits, openMessage }: { target: MemberSnapshot; reason: string; error?: string; limits: ReasonLimits; openMessage?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="narrow">
      <p>
        <a href={href(`/profile/${target.id}`)}>{t('introductions.request.backToProfile', { name: target.name })}</a>
      </p>
      <IntroduceForm target={target} reason={reason} error={error} limits={limits} openMessage={openMessage} />
    </section>
  );
}

/** A refusal page for what cannot be asked at all (oneself). */
export function IntroduceRefused({ message }: { message: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="narrow">
      <h1 id="introduce-heading">{t('introductions.request.title')}</h1>
      <Alert kind="error">{message}</Alert>
      <p>
        <a href={href('/members/introductions')}>{t('introductions.request.seeRequests')}</a>
      </p>
    </section>
  );
}

/** What the dialog shows once the request is sent. */
export function IntroduceSent({ target }: { target: MemberSnapshot }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <div className="introduce">
      <h2 id="introduce-heading">{t('introductions.request.title')}</h2>
      <Alert kind="success">{t('introductions.request.sent', { name: target.name })}</Alert>
      <div className="button-row">
        <a className="button" href={href('/members/introductions')} data-introduce-focus="">
          {t('introductions.request.seeRequests')}
        </a>
        <button type="button" className="button button-secondary" data-introduce-cancel="">
          {t('introductions.request.close')}
        </button>
      </div>
    </div>
  );
}

export function StatusBadge({ status }: { status: IntroductionStatus }) {
  const { t } = usePage();
  return <span className={`intro-status intro-status-${status.toLowerCase()}`}>{t(`introductions.status.${status}`)}</span>;
}

/** The member's requests and their states, newest first. */
export function MyIntroductions({ requests, notice, askAgain }: { requests: IntroductionItem[]; notice?: string; askAgain: number[] }) {
  const { t } = usePage();
  const again = new Set(askAgain);
  const shownAgain = new Set<number>();
  return (
    <section className="narrow">
      <Tabs mode="introductions" />
      <h1>{t('introductions.mine.heading')}</h1>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      {requests.length === 0 ? <EmptyState title={t('introductions.mine.empty')} /> : null}
      <ul className="plain intro-list">
        {requests.map((r) => {
          // One "Ask again" per member: on the newest request to them, when it was declined and none is open.
          const offerAgain = r.status === 'DECLINED' && again.has(r.target.id) && !shownAgain.has(r.target.id);
          if (offerAgain) shownAgain.add(r.target.id);
          return (
            <li key={r.id} className="card intro-card">
              <h2>{t('introductions.mine.to', { name: r.target.name })}</h2>
              <p>
                <MemberLine member={r.target} />
              </p>
              <p>
                <StatusBadge status={r.status} /> <span className="muted">{t('introductions.mine.requested', { date: formatDate(r.createdAt) })}</span>
                {r.reviewedAt ? <span className="muted"> · {t('introductions.mine.reviewed', { date: formatDate(r.reviewedAt) })}</span> : null}
              </p>
              <p className="intro-label">{t('introductions.mine.yourReason')}</p>
              <p className="intro-text">{r.reason}</p>
              {r.status !== 'PENDING' && r.reviewNote ? (
                <>
                  <p className="intro-label">{t(r.status === 'APPROVED' ? 'introductions.mine.staffNote' : 'introductions.mine.declineReason')}</p>
                  <p className="intro-text">{r.reviewNote}</p>
                </>
              ) : null}
              {offerAgain ? <IntroduceLink userId={r.target.id} name={r.target.name} /> : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
