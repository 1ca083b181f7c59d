import { useEffect, useRef, useState, type FormEvent } from 'react';

export type FeedbackRemark = { id: number; remark: string; createdAt: string; hasRead: boolean; authorName: string };

export type FeedbackThreadProps = {
  articleId: number;
  action: string;
  graphqlUrl: string;
  csrf: string;
  /** Without JavaScript: the same page asking for more of the newest remarks. */
  olderHref: string | null;
  /** Hydrated: the cursor older remarks are fetched before. */
  olderCursor: string | null;
  remarks: FeedbackRemark[];
  /** The message as last posted (it comes back in its field when the send was refused). */
  text?: string;
  error?: string;
  labels: Record<'heading' | 'none' | 'older' | 'olderFailed' | 'label' | 'send' | 'sending' | 'sent' | 'failed' | 'retry' | 'you' | 'new', string>;
};

type Shown = FeedbackRemark & { state?: 'sending' | 'failed'; key: string };

type GraphQLRemark = { id: string; remark: string; createdAt: string; hasRead: boolean; author: { snapshot: { name: string } } };

/** A remark as the thread shows it, from the GraphQL answer (a sent one or an older one). */
const shownOf = (node: GraphQLRemark): Shown => ({
  key: `r${node.id}`,
  id: Number(node.id),
  remark: node.remark,
  createdAt: node.createdAt,
  hasRead: node.hasRead,
  authorName: node.author.snapshot.name,
});

const MUTATION = 'mutation($a: ID!, $f: String!) { articleFeedbackCreate(articleId: $a, feedback: $f) { id remark createdAt author { snapshot { name } } } }';
const OLDER =
  'query($a: ID!, $b: String, $n: Int) { articleFeedback(articleId: $a, last: $n, before: $b) { edges { node { id remark createdAt hasRead author { snapshot { name } } } } pageInfo { hasPreviousPage startCursor } } }';
/** As many older remarks a time as the page shows at first. */
const OLDER_PAGE = 20;
const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The feedback thread between the member and the editor (spec section 2). Without JavaScript it is the
 * list and a form that posts and comes back; hydrated, a sent message is shown at once, then marked
 * sent or failed (with Try again, the text kept), Send stays disabled while the field is empty or a
 * message is on its way, and older messages are fetched and added above the ones shown.
 */
export default function FeedbackThread(props: FeedbackThreadProps) {
  const { labels } = props;
  const [hydrated, setHydrated] = useState(false);
  const [items, setItems] = useState<Shown[]>(() => props.remarks.map((r) => ({ ...r, key: `r${r.id}` })));
  const [text, setText] = useState(props.text ?? '');
  const [announce, setAnnounce] = useState('');
  const [older, setOlder] = useState<{ cursor: string | null; loading: boolean; failed: boolean }>({ cursor: props.olderCursor, loading: false, failed: false });
  const [focusId, setFocusId] = useState<number | null>(null);
  const seq = useRef(0);
  useEffect(() => setHydrated(true), []);

  // After older remarks arrive, reading goes on from the oldest of them (the button may be gone).
  useEffect(() => {
    if (focusId === null) return;
    document.getElementById(`remark-${focusId}`)?.focus();
    setFocusId(null);
  }, [focusId]);

  async function post(query: string, variables: Record<string, unknown>) {
    const res = await fetch(props.graphqlUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': props.csrf },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: Record<string, unknown> };
  }

  async function send(key: string, remark: string) {
    setItems((list) => list.map((i) => (i.key === key ? { ...i, state: 'sending' } : i)));
    setAnnounce(labels.sending);
    try {
      const json = await post(MUTATION, { a: String(props.articleId), f: remark });
      const saved = json.data?.articleFeedbackCreate as Omit<GraphQLRemark, 'hasRead'> | undefined;
      if (!saved) throw new Error('not saved');
      setItems((list) => list.map((i) => (i.key === key ? { ...shownOf({ ...saved, hasRead: true }), key } : i)));
      setAnnounce(labels.sent);
    } catch {
      setItems((list) => list.map((i) => (i.key === key ? { ...i, state: 'failed' } : i)));
      setAnnounce('');
    }
  }

  async function loadOlder() {
    if (!older.cursor || older.loading) return;
    setOlder((o) => ({ ...o, loading: true, failed: false }));
    try {
      const json = await post(OLDER, { a: String(props.articleId), b: older.cursor, n: OLDER_PAGE });
      const page = json.data?.articleFeedback as { edges: Array<{ node: GraphQLRemark }>; pageInfo: { hasPreviousPage: boolean; startCursor: string | null } } | undefined;
      if (!page) throw new Error('not loaded');
      const fetched = page.edges.map(({ node }) => shownOf(node));
      setItems((list) => [...fetched.filter((f) => !list.some((i) => i.key === f.key)), ...list]);
      setOlder({ cursor: page.pageInfo.hasPreviousPage ? page.pageInfo.startCursor : null, loading: false, failed: false });
      if (fetched[0]) setFocusId(fetched[0].id);
    } catch {
      setOlder((o) => ({ ...o, loading: false, failed: true }));
    }
  }

  // Spec section 5: Send is disabled while the message is empty or one is being sent.
  const sending = items.some((i) => i.state === 'sending');

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const remark = text.trim();
    if (!remark || sending) return;
    const key = `new${++seq.current}`;
    setItems((list) => [...list, { key, id: 0, remark, createdAt: new Date().toISOString(), hasRead: true, authorName: labels.you, state: 'sending' }]);
    setText('');
    void send(key, remark);
  }

  return (
    <section className="feedback" id="feedback" aria-labelledby="feedback-heading">
      <h2 id="feedback-heading">{labels.heading}</h2>
      {hydrated && older.cursor ? (
        <button type="button" className="link-button feedback-older" onClick={() => void loadOlder()} aria-disabled={older.loading || undefined}>
          {labels.older}
        </button>
      ) : !hydrated && props.olderHref ? (
        <a href={props.olderHref}>{labels.older}</a>
      ) : null}
      {older.failed ? (
        <p className="field-error" role="alert">
          {labels.olderFailed}
        </p>
      ) : null}
      {items.length === 0 ? <p className="muted">{labels.none}</p> : null}
      <ol className="plain thread">
        {items.map((r) => (
          <li key={r.key} id={r.id ? `remark-${r.id}` : undefined} tabIndex={r.id ? -1 : undefined} className={r.hasRead ? 'remark' : 'remark remark-unread'}>
            <p className="remark-meta">
              {/* Bold alone is not heard: a screen reader says "New" too. */}
              {r.hasRead ? null : <span className="visually-hidden">{`${labels.new} `}</span>}
              {r.authorName} · {dateFormat.format(new Date(r.createdAt))}
              {r.state === 'sending' ? ` · ${labels.sending}` : null}
            </p>
            <p>{r.remark}</p>
            {r.state === 'failed' ? (
              <p className="field-error" role="alert">
                {labels.failed}{' '}
                <button type="button" className="link-button" onClick={() => void send(r.key, r.remark)}>
                  {labels.retry}
                </button>
              </p>
            ) : null}
          </li>
        ))}
      </ol>
      <p className="visually-hidden" role="status">
        {announce}
      </p>
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
        <button type="submit" className="button button-secondary" disabled={hydrated && (text.trim() === '' || sending)}>
          {labels.send}
        </button>
      </form>
    </section>
  );
}
