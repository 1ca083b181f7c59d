import { useEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import type { EditorView } from 'prosemirror-view';
import { Autosaver, type Draft, type SaveStatus, type SendResult } from './editor/autosave.ts';
import { createRichTextView, serialise, wordsOf } from './editor/rich-view.ts';
import { RichToolbar } from './editor/Toolbar.tsx';
import { savedTime } from './editor/words.ts';

export type ArticleEditorLabels = Record<
  | 'title'
  | 'body'
  | 'bodyHint'
  | 'wordCount'
  | 'save'
  | 'saveExit'
  | 'back'
  | 'submitHeading'
  | 'agreeSubmit'
  | 'submit'
  | 'saving'
  | 'autosaved'
  | 'offline'
  | 'saveError'
  | 'retry'
  | 'titleRequired'
  | 'titleTooLong'
  | 'bodyTooShort'
  | 'bodyTooLong'
  | 'bylineMissing'
  | 'bylineEdit'
  | 'blackout'
  | 'notEditable'
  | 'signedOut'
  | 'applicationRequired'
  | 'agreementRequired'
  | 'agreementHeading'
  | 'agreementIntro'
  | 'agreementLink'
  | 'confirm'
  | 'submitNeeds'
  | 'toolbar'
  | 'bold'
  | 'italic'
  | 'underline'
  | 'heading'
  | 'subheading'
  | 'bulletList'
  | 'numberedList'
  | 'link'
  | 'unlink'
  | 'linkUrl'
  | 'linkInvalid'
  | 'apply'
  | 'cancel',
  string
>;

export type ArticleEditorProps = {
  action: string;
  graphqlUrl: string;
  backHref: string;
  settingsHref: string;
  /** The program's terms, linked from the submit agreement's modal. */
  agreementHref: string;
  csrf: string;
  articleId: number | null;
  title: string;
  /** The body as stored (sanitised rich text). */
  content: string;
  /** The same body as plain paragraphs, for the form without JavaScript. */
  plainBody: string;
  wordCount: number;
  savedAt: string | null;
  bylineSaved: boolean;
  blackout: boolean;
  /** The submit agreement box as last posted (ticked again when a submit comes back refused). */
  agreed: boolean;
  /** The article is no longer the member's to change: the text is shown to copy, nothing can save it. */
  locked: boolean;
  errors: Record<string, string>;
  locale: string;
  timeZone?: string;
  labels: ArticleEditorLabels;
};

const TITLE_MAX = 254;
const MIN_WORDS = 500;
const MAX_WORDS = 1000;
const AUTOSAVE_MS = 3000;
const MUTATION = 'mutation($id: ID, $t: String!, $c: String!) { articleAutoSaveRevision(articleId: $id, title: $t, content: $c) { id status } }';

const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));

/**
 * The article editor (spec sections 2, 4, 5). Rendered on the server as a plain form (title, a plain
 * body field, Save and Submit) that works without JavaScript; hydrated, the body becomes a ProseMirror
 * rich-text editor limited to the allowed tags, the text autosaves 3 s after the last change through
 * the articleAutoSaveRevision mutation, and Submit is enabled only when the rules are met.
 */
export default function ArticleEditor(props: ArticleEditorProps) {
  const { labels } = props;
  const [enhanced, setEnhanced] = useState(false);
  const [title, setTitle] = useState(props.title);
  const [html, setHtml] = useState(props.content);
  const [words, setWords] = useState(props.wordCount);
  const [articleId, setArticleId] = useState(props.articleId);
  const [status, setStatus] = useState<SaveStatus>({ kind: 'idle' });
  const [online, setOnline] = useState(true);
  const [agreed, setAgreed] = useState(props.agreed);
  // Set by the page (a post came back refused) or by an autosave the server refused for good.
  const [locked, setLocked] = useState(props.locked);
  const [, setTick] = useState(0);
  const mount = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const saver = useRef<Autosaver | null>(null);
  const draft = useRef<Draft>({ title: props.title, content: props.content });
  const leaving = useRef(false);
  const posting = useRef(false);
  const lockView = useRef<() => void>(() => {});
  const agreement = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const autosaver = new Autosaver({
      articleId: props.articleId,
      delay: AUTOSAVE_MS,
      isOnline: () => navigator.onLine,
      onStatus: (s) => {
        setStatus(s);
        if (s.kind === 'saved') setArticleId(autosaver.articleId);
      },
      send: async (d, id): Promise<SendResult> => {
        const res = await fetch(props.graphqlUrl, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': props.csrf },
          body: JSON.stringify({ query: MUTATION, variables: { id: id === null ? null : String(id), t: d.title, c: d.content } }),
        });
        if (res.status >= 500 || res.status === 429) return { ok: false, retry: true, message: labels.saveError };
        const json = (await res.json().catch(() => null)) as { data?: { articleAutoSaveRevision?: { id: string } }; errors?: Array<{ message: string; extensions?: { code?: string; fields?: Record<string, unknown> } }> } | null;
        const saved = json?.data?.articleAutoSaveRevision;
        if (saved) return { ok: true, articleId: Number(saved.id) };
        const error = json?.errors?.[0];
        const code = error?.extensions?.code;
        if (code === 'Articles.NotEditable' || code === 'Articles.ApplicationRequired') {
          // The editors took the article (or it was submitted from another tab), or the community now
          // starts new articles with its application form: no save can work, so none is offered; the
          // text stays to copy.
          autosaver.stop();
          lockView.current();
          setLocked(true);
          return { ok: false, retry: false, message: code === 'Articles.NotEditable' ? labels.notEditable : labels.applicationRequired };
        }
        // Signed out meanwhile (the session ended): retried with the backoff, so signing in again in
        // another tab lets the next try save what is on this page.
        if (error?.extensions?.code === 'NotAuthenticated') return { ok: false, retry: true, message: labels.signedOut };
        if (error?.extensions?.fields?.title) return { ok: false, retry: false, field: 'title', message: labels.titleTooLong };
        // Refusals (not editable any more, signed out, bad token) are not retried: the text stays here.
        return { ok: false, retry: res.status < 400, message: labels.saveError };
      },
    });
    saver.current = autosaver;

    // Whatever was typed into the plain form while the script loaded is kept, and saved.
    const typedBody = (document.getElementById('body') as HTMLTextAreaElement | null)?.value;
    const typedTitle = (document.getElementById('title') as HTMLInputElement | null)?.value;
    const typedAgreed = (document.getElementById('agreed') as HTMLInputElement | null)?.checked ?? false;
    const bodyTyped = typedBody !== undefined && typedBody !== props.plainBody;
    const titleTyped = typedTitle !== undefined && typedTitle !== props.title;
    const attributes: Record<string, string> = {
      id: 'rich-body-editable',
      'aria-labelledby': 'body-label',
      'aria-describedby': props.errors.content ? 'body-count body-error' : 'body-count',
      ...(props.errors.content ? { 'aria-invalid': 'true' } : {}),
    };
    lockView.current = () => {
      const v = view.current;
      v?.setProps({ editable: () => false, attributes: { ...(v.props.attributes as Record<string, string>), 'aria-readonly': 'true' } });
    };
    const editor = createRichTextView(mount.current!, {
      editable: !props.locked,
      content: bodyTyped ? null : props.content,
      plainBody: bodyTyped ? typedBody : props.plainBody,
      attributes: props.locked ? { ...attributes, 'aria-readonly': 'true' } : attributes,
      onChange(next, docChanged) {
        setTick((n) => n + 1);
        if (!docChanged) return;
        const content = serialise(next);
        setHtml(content);
        setWords(wordsOf(next));
        draft.current = { ...draft.current, content };
        autosaver.change(draft.current);
      },
    });
    view.current = editor;
    // The stored HTML may differ in form from the serialiser's (b → strong); start from the latter.
    draft.current = { title: titleTyped ? typedTitle : props.title, content: serialise(editor.state) };
    setHtml(draft.current.content);
    setWords(wordsOf(editor.state));
    if (titleTyped) setTitle(typedTitle);
    if (typedAgreed) setAgreed(true);
    if (props.locked) autosaver.stop();
    else if (bodyTyped || titleTyped) autosaver.change(draft.current);

    const goneOffline = () => setOnline(false);
    const backOnline = () => {
      setOnline(true);
      autosaver.online();
    };
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (leaving.current || !autosaver.pending()) return;
      e.preventDefault();
      e.returnValue = '';
    };
    // Back from the back-forward cache after leaving: the post may not have happened; carry on saving.
    const pageShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      leaving.current = false;
      posting.current = false;
      autosaver.resume();
    };
    window.addEventListener('offline', goneOffline);
    window.addEventListener('online', backOnline);
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('pageshow', pageShow);
    setOnline(navigator.onLine);
    setEnhanced(true);
    return () => {
      window.removeEventListener('offline', goneOffline);
      window.removeEventListener('online', backOnline);
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('pageshow', pageShow);
      editor.destroy();
    };
    // Mounted once; the props are the page's initial state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A submit refused for want of the agreement comes back with the modal open at its box.
  useEffect(() => {
    if (enhanced && !locked && props.errors.agreed && agreement.current && !agreement.current.open) agreement.current.showModal();
    // Once, when the island takes over the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enhanced]);

  const changeTitle = (value: string) => {
    if (locked) return;
    setTitle(value);
    draft.current = { ...draft.current, title: value };
    saver.current?.change(draft.current);
  };

  const state = view.current?.state;
  const titleTrimmed = title.trim();
  const titleProblem = titleTrimmed.length > TITLE_MAX ? labels.titleTooLong : props.errors.title;
  const needs: string[] = [];
  if (titleTrimmed.length === 0) needs.push(labels.titleRequired);
  if (titleTrimmed.length > TITLE_MAX) needs.push(labels.titleTooLong);
  if (words < MIN_WORDS) needs.push(labels.bodyTooShort);
  if (words > MAX_WORDS) needs.push(labels.bodyTooLong);
  if (!props.bylineSaved) needs.push(labels.bylineMissing);
  if (props.blackout) needs.push(labels.blackout);
  const ready = needs.length === 0;

  const statusText =
    status.kind === 'saving'
      ? labels.saving
      : status.kind === 'saved'
        ? fill(labels.autosaved, { time: savedTime(status.at, new Date(), props.locale, props.timeZone) })
        : status.kind === 'idle' && props.savedAt && enhanced
          ? fill(labels.autosaved, { time: savedTime(new Date(props.savedAt), new Date(), props.locale, props.timeZone) })
          : '';
  // Once locked, the one message is the form's (from the page) or the refusal's, never a Retry.
  const failure = status.kind === 'failed' && !(locked && props.errors.form) ? status : null;
  const showOffline = enhanced && (!online || status.kind === 'offline');

  /** The agreement's box: in the modal (controlled) once hydrated, in the form before. */
  const agreeBox = (inModal: boolean) => (
    <>
      <div className="check">
        <input
          type="checkbox"
          id="agreed"
          name="agreed"
          {...(inModal ? { checked: agreed } : { defaultChecked: props.agreed })}
          onChange={(e) => setAgreed(e.target.checked)}
          aria-invalid={props.errors.agreed ? true : undefined}
          aria-describedby={props.errors.agreed ? 'agreed-error' : undefined}
        />
        <label htmlFor="agreed">{labels.agreeSubmit}</label>
      </div>
      {props.errors.agreed ? (
        <p className="field-error" id="agreed-error">
          {props.errors.agreed}
        </p>
      ) : null}
    </>
  );

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (!enhanced) return;
    if (submitter?.value === 'submit' && !(ready && agreed)) {
      e.preventDefault();
      return;
    }
    if (!navigator.onLine) {
      // A post now would leave for the browser's error page: stay, keep the text, say why.
      e.preventDefault();
      setOnline(false);
      return;
    }
    if (posting.current) return;
    // The post must be the last write: wait for a save on the wire, then post naming its article.
    e.preventDefault();
    posting.current = true;
    const form = e.currentTarget;
    void saver.current!
      .settle()
      // A task later: a form cannot be submitted again while its submit event is still being fired.
      .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
      .then(() => {
        flushSync(() => setArticleId(saver.current!.articleId));
        leaving.current = true;
        form.requestSubmit(submitter ?? undefined);
      });
  };

  return (
    <form method="post" action={props.action} className="stack article-form" noValidate onSubmit={onSubmit}>
      <input type="hidden" name="_csrf" value={props.csrf} />
      {articleId !== null ? <input type="hidden" name="articleId" value={articleId} /> : null}
      <div className="editor-top">
        {enhanced && !locked && (titleTrimmed !== '' || words > 0) ? (
          <button type="submit" name="action" value="exit" className="link-button">
            {labels.saveExit}
          </button>
        ) : (
          <a href={props.backHref}>{labels.back}</a>
        )}
        <p className="save-status" role="status" aria-live="polite">
          {statusText}
        </p>
      </div>
      {props.errors.form ? (
        <div className="alert alert-error" role="alert">
          {props.errors.form}
        </div>
      ) : null}
      {showOffline ? (
        <div className="alert alert-info" role="alert">
          {labels.offline}{' '}
          <button type="button" className="link-button" onClick={() => void saver.current?.flush()}>
            {labels.retry}
          </button>
        </div>
      ) : null}
      {failure ? (
        <div className="alert alert-error" role="alert">
          {failure.message ?? labels.saveError}{' '}
          {failure.field || locked ? null : (
            <button type="button" className="link-button" onClick={() => void saver.current?.flush()}>
              {labels.retry}
            </button>
          )}
        </div>
      ) : null}
      <div className={titleProblem ? 'field field-invalid' : 'field'}>
        <label htmlFor="title">{labels.title}</label>
        <input
          id="title"
          name="title"
          type="text"
          value={title}
          maxLength={400}
          readOnly={locked}
          onChange={(e) => changeTitle(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
          aria-invalid={titleProblem ? true : undefined}
          aria-describedby={titleProblem ? 'title-error' : undefined}
        />
        {titleProblem ? (
          <p className="field-error" id="title-error">
            {titleProblem}
          </p>
        ) : null}
      </div>
      <div className={props.errors.content ? 'field field-invalid' : 'field'}>
        {enhanced ? (
          <span className="label" id="body-label" onClick={() => view.current?.focus()}>
            {labels.body}
          </span>
        ) : (
          <label htmlFor="body" id="body-label">
            {labels.body}
          </label>
        )}
        {enhanced && !locked && state && view.current ? <RichToolbar view={view.current} state={state} labels={labels} controls="rich-body-editable" /> : null}
        <div id="rich-body" ref={mount} hidden={!enhanced} className="rich-body-holder" />
        {enhanced ? (
          <input type="hidden" name="content" value={html} />
        ) : (
          <>
            <textarea
              id="body"
              name="body"
              rows={18}
              readOnly={locked}
              defaultValue={props.plainBody}
              aria-describedby={['body-hint', 'body-count', props.errors.content ? 'body-error' : ''].filter(Boolean).join(' ')}
              aria-invalid={props.errors.content ? true : undefined}
            />
            <p className="field-hint" id="body-hint">
              {labels.bodyHint}
            </p>
          </>
        )}
        <p className={words > MAX_WORDS ? 'word-count word-count-over' : 'word-count'} id="body-count">
          {fill(labels.wordCount, { n: words })}
        </p>
        {props.errors.content ? (
          <p className="field-error" id="body-error">
            {props.errors.content}
          </p>
        ) : null}
      </div>
      {enhanced || locked ? null : (
        <div className="button-row">
          <button type="submit" name="action" value="save" className="button button-secondary">
            {labels.save}
          </button>
          <button type="submit" name="action" value="exit" className="button button-secondary">
            {labels.saveExit}
          </button>
        </div>
      )}
      {locked ? null : (
        <fieldset className="submit-box">
          <legend>{labels.submitHeading}</legend>
          {props.errors.byline ? <p className="field-error">{props.errors.byline}</p> : null}
          {enhanced && !ready ? (
            <div className="submit-needs" id="submit-needs">
              <p>{labels.submitNeeds}</p>
              <ul>
                {needs.map((n) => (
                  <li key={n}>
                    {n}
                    {n === labels.bylineMissing ? (
                      <>
                        {' '}
                        <a href={props.settingsHref}>{labels.bylineEdit}</a>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {enhanced ? (
            <>
              {/* Spec section 4: submitting needs the article agreement modal; Confirm waits for the box. */}
              <button type="button" className="button" disabled={!ready} aria-describedby={!ready ? 'submit-needs' : undefined} aria-haspopup="dialog" onClick={() => agreement.current?.showModal()}>
                {labels.submit}
              </button>
              <dialog ref={agreement} className="modal" aria-labelledby="submit-agreement-heading">
                <h2 id="submit-agreement-heading">{labels.agreementHeading}</h2>
                <p>{labels.agreementIntro}</p>
                <p>
                  <a href={props.agreementHref} target="_blank" rel="noopener">
                    {labels.agreementLink}
                  </a>
                </p>
                {agreeBox(true)}
                <div className="actions">
                  <button type="submit" name="action" value="submit" className="button" disabled={!(ready && agreed)}>
                    {labels.confirm}
                  </button>
                  <button type="button" className="button button-secondary" onClick={() => agreement.current?.close()}>
                    {labels.cancel}
                  </button>
                </div>
              </dialog>
            </>
          ) : (
            <>
              {agreeBox(false)}
              <button type="submit" name="action" value="submit" className="button" disabled={props.blackout}>
                {labels.submit}
              </button>
            </>
          )}
        </fieldset>
      )}
    </form>
  );
}
