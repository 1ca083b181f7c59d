import type { ForumTargetKind, ReportReason, TopicView } from '#src/features/forum/index.ts';
import { CsrfField, Hidden } from '#views/kit/form.tsx';
import { Alert } from '#views/kit/alert.tsx';
import { Island } from '#views/layout/Island.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { itemHref, TextArea } from '#src/features/forum/views/parts.tsx';

export type PostFormValues = { title: string; body: string; topicIds: number[] };
export type PostFormErrors = Partial<Record<'title' | 'body' | 'topicIds' | 'form', string>>;

/**
 * The new-post form, and the edit form of one's own post: title, message, topics. Without JavaScript a
 * plain form; the draft island (new posts only) keeps title and message on the device while typing.
 */
export function PostForm({
  mode,
  postId,
  values,
  errors,
  topics,
  limits,
}: {
  mode: 'new' | 'edit';
  postId?: number;
  values: PostFormValues;
  errors: PostFormErrors;
  topics: TopicView[];
  limits: { titleMax: number; bodyMax: number; topicsMax: number };
}) {
  const { t, community, guardian } = usePage();
  const href = useHref();
  const action = mode === 'new' ? href('/forum/new') : href(`/forum/post/${postId}/edit`);
  const chosen = new Set(values.topicIds);
  const topicsDescribed = ['topics-hint', errors.topicIds ? 'topics-error' : null].filter(Boolean).join(' ');
  return (
    <section className="narrow forum-form">
      <p>
        <a href={mode === 'new' ? href('/forum') : href(`/forum/post/${postId}`)}>{t('forumPages.post.back')}</a>
      </p>
      <h1>{t(mode === 'new' ? 'forumPages.form.newHeading' : 'forumPages.form.editTitle')}</h1>
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      {errors.topicIds && topics.length === 0 ? <Alert kind="error">{errors.topicIds}</Alert> : null}
      <form method="post" action={action} className="stack" noValidate id="forum-post-form">
        <CsrfField />
        <div className={errors.title ? 'field field-invalid' : 'field'}>
          <label htmlFor="post-title">{t('forumPages.form.title')}</label>
          <input
            id="post-title"
            name="title"
            defaultValue={values.title}
            maxLength={limits.titleMax + 100}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={errors.title ? 'post-title-error' : undefined}
          />
          {errors.title ? (
            <p className="field-error" id="post-title-error">
              {errors.title}
            </p>
          ) : null}
        </div>
        <TextArea id="post-body" name="body" label={t('forumPages.form.body')} value={values.body} error={errors.body} hint={t('forumPages.form.bodyHint', { max: limits.bodyMax })} rows={12} />
        {topics.length > 0 ? (
          <fieldset className={errors.topicIds ? 'forum-topic-choice field-invalid' : 'forum-topic-choice'} aria-describedby={topicsDescribed}>
            <legend>{t('forumPages.form.topics')}</legend>
            <p className="field-hint" id="topics-hint">
              {t('forumPages.form.topicsHint', { limit: limits.topicsMax })}
            </p>
            {errors.topicIds ? (
              <p className="field-error" id="topics-error">
                {errors.topicIds}
              </p>
            ) : null}
            {topics.map((topic) => (
              <div className="check" key={topic.id}>
                <input type="checkbox" id={`topic-${topic.id}`} name="topicIds" value={String(topic.id)} defaultChecked={chosen.has(topic.id)} />
                <label htmlFor={`topic-${topic.id}`}>{topic.name}</label>
              </div>
            ))}
          </fieldset>
        ) : null}
        <div className="button-row">
          <button type="submit" className="button">
            {t(mode === 'new' ? 'forumPages.form.submit' : 'forumPages.form.save')}
          </button>
          <a className="button button-secondary" href={mode === 'new' ? href('/forum') : href(`/forum/post/${postId}`)}>
            {t('forumPages.form.cancel')}
          </a>
        </div>
      </form>
      {mode === 'new' ? (
        <Island
          name="ForumDraft"
          props={{
            formId: 'forum-post-form',
            storageKey: `forum-draft:${community.id}:${guardian.userId ?? 0}`,
            restored: t('forumPages.form.draftRestored'),
            saved: t('forumPages.form.draftSaved'),
          }}
        />
      ) : null}
    </section>
  );
}

/** The edit form of one's own reply. */
export function ReplyEditForm({ replyId, postId, postTitle, body, error }: { replyId: number; postId: number; postTitle: string; body: string; error?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="narrow forum-form">
      <p>
        <a href={href(`/forum/post/${postId}`)}>{postTitle}</a>
      </p>
      <h1>{t('forumPages.form.editReplyTitle')}</h1>
      <form method="post" action={href(`/forum/reply/${replyId}/edit`)} className="stack" noValidate>
        <CsrfField />
        <TextArea id="reply-body" name="body" label={t('forumPages.post.replyLabel')} value={body} error={error} rows={8} />
        <div className="button-row">
          <button type="submit" className="button">
            {t('forumPages.form.save')}
          </button>
          <a className="button button-secondary" href={href(`/forum/post/${postId}#reply-${replyId}`)}>
            {t('forumPages.form.cancel')}
          </a>
        </div>
      </form>
    </section>
  );
}

/** "Delete your post?" with a button that posts, and a way back. */
export function DeleteConfirm({ kind, id, postId, title, error }: { kind: ForumTargetKind; id: number; postId: number; title: string; error?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="narrow forum-form">
      <h1>{t(kind === 'post' ? 'forumPages.delete.postTitle' : 'forumPages.delete.replyTitle')}</h1>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <p>{t(kind === 'post' ? 'forumPages.delete.postQuestion' : 'forumPages.delete.replyQuestion', { title })}</p>
      <p>{t('forumPages.delete.text')}</p>
      <form method="post" action={href(`/forum/${kind}/${id}/delete`)} className="button-row">
        <CsrfField />
        <button type="submit" className="button">
          {t('forumPages.delete.confirm')}
        </button>
        <a className="button button-secondary" href={href(itemHref(kind, id, postId))}>
          {t('forumPages.delete.cancel')}
        </a>
      </form>
    </section>
  );
}

/**
 * A moderator's removal of someone else's post or reply: the reason is required and goes to its
 * author; the removal is logged and restorable (moderation.ts, removeContent).
 */
export function RemoveForm({ kind, id, postId, title, authorName, reason, error, formError }: { kind: ForumTargetKind; id: number; postId: number; title: string; authorName: string; reason: string; error?: string; formError?: string }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="narrow forum-form">
      <h1>{t(kind === 'post' ? 'forumPages.remove.postTitle' : 'forumPages.remove.replyTitle')}</h1>
      {formError ? <Alert kind="error">{formError}</Alert> : null}
      <p>{t(kind === 'post' ? 'forumPages.remove.postQuestion' : 'forumPages.remove.replyQuestion', { title, name: authorName })}</p>
      <p>{t('forumPages.remove.text')}</p>
      <form method="post" action={href(`/forum/${kind}/${id}/remove`)} noValidate>
        <CsrfField />
        <TextArea id="remove-reason" name="reason" label={t('forumPages.remove.reason')} value={reason} error={error} rows={4} />
        <div className="button-row">
          <button type="submit" className="button">
            {t('forumPages.remove.confirm')}
          </button>
          <a className="button button-secondary" href={href(itemHref(kind, id, postId))}>
            {t('forumPages.remove.cancel')}
          </a>
        </div>
      </form>
    </section>
  );
}

export type ReportFormProps = {
  kind: ForumTargetKind;
  id: number;
  postId: number;
  postTitle: string;
  authorName: string;
  reasons: readonly ReportReason[];
  reason: string;
  description: string;
  max: number;
  errors: Partial<Record<'reason' | 'description' | 'form', string>>;
};

/** Report a post or reply: a reason (radios) and a description with its length. */
export function ReportForm({ kind, id, postId, postTitle, authorName, reasons, reason, description, max, errors }: ReportFormProps) {
  const { t } = usePage();
  const href = useHref();
  const reasonDescribed = errors.reason ? 'report-reason-error' : undefined;
  return (
    <section className="narrow forum-form">
      <h1>{t(kind === 'post' ? 'forumPages.report.postHeading' : 'forumPages.report.replyHeading')}</h1>
      <p>{t('forumPages.report.about', { kind, title: postTitle, name: authorName })}</p>
      {errors.form ? <Alert kind="error">{errors.form}</Alert> : null}
      <form method="post" action={href(`/forum/report/${kind}/${id}`)} className="stack" noValidate>
        <CsrfField />
        <fieldset className={errors.reason ? 'forum-topic-choice field-invalid' : 'forum-topic-choice'} aria-describedby={reasonDescribed}>
          <legend>{t('forumPages.report.reason')}</legend>
          {errors.reason ? (
            <p className="field-error" id="report-reason-error">
              {errors.reason}
            </p>
          ) : null}
          {reasons.map((r) => (
            <div className="check" key={r}>
              <input type="radio" id={`reason-${r}`} name="reason" value={r} defaultChecked={reason === r} />
              <label htmlFor={`reason-${r}`}>{t(`forum.reportReasons.${r}`)}</label>
            </div>
          ))}
        </fieldset>
        <TextArea id="report-description" name="description" label={t('forumPages.report.description')} value={description} error={errors.description} hint={t('forumPages.report.counterHint', { max })} rows={4} />
        <p className="word-count" id="report-description-count" data-max={max} data-template={t('forumPages.report.counter', { n: '{n}', max })}>
          {t('forumPages.report.counter', { n: description.length, max })}
        </p>
        <div className="button-row">
          <button type="submit" className="button">
            {t('forumPages.report.submit')}
          </button>
          <a className="button button-secondary" href={href(itemHref(kind, id, postId))}>
            {t('forumPages.report.cancel')}
          </a>
        </div>
        <Hidden name="post" value={String(postId)} />
      </form>
      <Island name="ForumDraft" props={{ formId: '', storageKey: '', restored: '', saved: '', counterFor: 'report-description' }} />
    </section>
  );
}
