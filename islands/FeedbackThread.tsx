import { useEffect, useRef, useState, type FormEvent } from 'react';

export type FeedbackRemark = { id: number; remark: string; createdAt: string; hasRead: boolean; authorName: string };

export type FeedbackThreadProps = {
  articleId: number;
  action: string;
  graphqlUrl: string;
  csrf: string;
  olderHref: string | null;
  remarks: FeedbackRemark[];
  error?: string;
  labels: Record<'heading' | 'none' | 'older' | 'label' | 'send' | 'sending' | 'failed' | 'retry' | 'you', string>;
};

type Shown = FeedbackRemark & { state?: 'sending' | 'failed'; key: string };

const MUTATION = 'mutation($a: ID!, $f: String!) { articleFeedbackCreate(articleId: $a, feedback: $f) { id remark createdAt author { snapshot { name } } } }';
const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The feedback thread between the member and the editor (spec section 2). Without JavaScript it is the
 * list and a form that posts and comes back; hydrated, a sent message is shown at once, then marked
 * sent or failed (with Try again, the text kept), and Send stays disabled while the field is empty.
 */
export default function FeedbackThread(props: FeedbackThreadProps) {
  const { labels } = props;
  const [hydrated, setHydrated] = useState(false);
  const [items, setItems] = useState<Shown[]>(() => props.remarks.map((r) => ({ ...r, key: `r${r.id}` })));
  const [text, setText] = useState('');
  const seq = useRef(0);
  useEffect(() => setHydrated(true), []);

  async function send(key: string, remark: string) {
    setItems((list) => list.map((i) => (i.key === key ? { ...i, state: 'sending' } : i)));
    try {
      const res = await fetch(props.graphqlUrl, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': props.csrf },
        body: JSON.stringify({ query: MUTATION, variables: { a: String(props.articleId), f: remark } }),
      });
      const json = (await res.json()) as { data?: { articleFeedbackCreate?: { id: string; remark: string; createdAt: string; author: { snapshot: { name: string } } } } };
      const saved = json.data?.articleFeedbackCreate;
      if (!saved) throw new Error('not saved');
      setItems((list) =>
        list.map((i) => (i.key === key ? { key, id: Number(saved.id), remark: saved.remark, createdAt: saved.createdAt, hasRead: true, authorName: saved.author.snapshot.name } : i)),
      );
    } catch {
      setItems((list) => list.map((i) => (i.key === key ? { ...i, state: 'failed' } : i)));
    }
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const remark = text.trim();
    if (!remark) return;
    const key = `new${++seq.current}`;
    setItems((list) => [...list, { key, id: 0, remark, createdAt: new Date().toISOString(), hasRead: true, authorName: labels.you, state: 'sending' }]);
    setText('');
    void send(key, remark);
  }

  return (
    <section className="feedback" id="feedback" aria-labelledby="feedback-heading">
      <h2 id="feedback-heading">{labels.heading}</h2>
      {props.olderHref ? <a href={props.olderHref}>{labels.older}</a> : null}
      {items.length === 0 ? <p className="muted">{labels.none}</p> : null}
      <ol className="plain thread" aria-live="polite">
        {items.map((r) => (
          <li key={r.key} className={r.hasRead ? 'remark' : 'remark remark-unread'}>
            <p className="remark-meta">
              {r.authorName} · {dateFormat.format(new Date(r.createdAt))}
              {r.state === 'sending' ? ` · ${labels.sending}` : null}
            </p>
            <p>{r.remark}</p>
            {r.state === 'failed' ? (
              <p className="field-error">
                {labels.failed}{' '}
                <button type="button" className="link-button" onClick={() => void send(r.key, r.remark)}>
                  {labels.retry}
                </button>
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      <form method="post" action={props.action} className="stack" noValidate onSubmit={hydrated ? onSubmit : undefined}>
        <input type="hidden" name="_csrf" value={props.csrf} />
        <input type="hidden" name="articleId" value={props.articleId} />
        <div className={props.error ? 'field field-invalid' : 'field'}>
          <label htmlFor="feedback-text">{labels.label}</label>
          <textarea
            id="feedback-text"
            name="feedback"
            rows={3}
            maxLength={5000}
            required
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={props.error ? 'feedback-error' : undefined}
          />
          {props.error ? (
            <p className="field-error" id="feedback-error">
              {props.error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button-secondary" disabled={hydrated && text.trim() === ''}>
          {labels.send}
        </button>
      </form>
    </section>
  );
}
