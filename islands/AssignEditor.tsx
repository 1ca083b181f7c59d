import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Table } from '#views/kit/table.tsx';

export type AssignEditorRow = {
  id: number;
  title: string;
  /** The article page in the admin area (its assign form is at `#assign`, its assign route at `/editor`). */
  href: string;
  member: string;
  /** The board filtered to this member's articles. */
  memberHref: string;
  status: string;
  editorId: number | null;
  editorName: string | null;
  /** Already formatted on the server (the same text on the server and in the browser). */
  changed: string;
  /** The trigger's accessible name, with the article's title in it. */
  assignLabel: string;
};

export type AssignEditorProps = {
  csrf: string;
  rows: AssignEditorRow[];
  editors: Array<{ id: number; name: string }>;
  labels: Record<
    | 'table'
    | 'colTitle'
    | 'colMember'
    | 'colStatus'
    | 'colEditor'
    | 'colChanged'
    | 'colActions'
    | 'unassigned'
    | 'assign'
    | 'heading'
    | 'articleLabel'
    | 'editorLabel'
    | 'submit'
    | 'saving'
    | 'cancel'
    | 'failed',
    string
  >;
};

type Answer = { article?: { id: number; editorId: number | null; editorName: string | null }; message?: string; error?: { message?: string } };

/**
 * The editors' board (spec: admin articles) with its assign-editor modal. Without JavaScript each
 * row's control is a link to the article page's assign form; hydrated, it is a button that opens one
 * native <dialog> (showModal: focus kept inside, Escape closes, a backdrop) which posts to the same
 * route asking for JSON. A success updates the row's editor in place and is announced in the live
 * region below the table; a failure keeps the dialog open, with the choice, and says why.
 */
export default function AssignEditor({ csrf, rows, editors, labels }: AssignEditorProps) {
  const [hydrated, setHydrated] = useState(false);
  const [assigned, setAssigned] = useState<Record<number, { editorId: number | null; editorName: string | null }>>({});
  const [openId, setOpenId] = useState<number | null>(null);
  const [choice, setChoice] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const triggers = useRef(new Map<number, HTMLButtonElement>());
  useEffect(() => setHydrated(true), []);

  const editorOf = (r: AssignEditorRow) => assigned[r.id] ?? { editorId: r.editorId, editorName: r.editorName };
  const current = rows.find((r) => r.id === openId) ?? null;

  useEffect(() => {
    const d = dialog.current;
    if (openId !== null && d && !d.open) d.showModal();
  }, [openId]);

  function open(row: AssignEditorRow) {
    const editorId = editorOf(row).editorId;
    setChoice(editorId === null ? '' : String(editorId));
    setError(null);
    setStatus('');
    setOpenId(row.id);
  }

  /** The dialog closed (Cancel, Escape or a success): focus goes back to the row's trigger. */
  function onClose() {
    const id = openId;
    setOpenId(null);
    setSaving(false);
    if (id !== null) triggers.current.get(id)?.focus();
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!current || saving) return;
    setSaving(true);
    setError(null);
    try {
      const res = await fetch(`${current.href}/editor`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf },
        body: new URLSearchParams({ editorId: choice }).toString(),
      });
      const answer = (await res.json().catch(() => ({}))) as Answer;
      if (!res.ok || !answer.article) {
        setError(answer.error?.message ?? labels.failed);
        setSaving(false);
        return;
      }
      const { editorId, editorName } = answer.article;
      setAssigned((all) => ({ ...all, [current.id]: { editorId, editorName } }));
      setStatus(answer.message ?? '');
      dialog.current?.close();
    } catch {
      setError(labels.failed);
      setSaving(false);
    }
  }

  return (
    <>
      {/* The kit's table: a table wider than a phone scrolls inside its own box, never the page (WCAG 1.4.10). */}
      <Table
        label={labels.table}
        columns={[
          { key: 'title', label: labels.colTitle },
          { key: 'member', label: labels.colMember },
          { key: 'status', label: labels.colStatus },
          { key: 'editor', label: labels.colEditor },
          { key: 'changed', label: labels.colChanged },
          { key: 'actions', label: <span className="visually-hidden">{labels.colActions}</span> },
        ]}
      >
        {rows.map((r) => {
          const editor = editorOf(r);
          return (
            <tr key={r.id}>
              <td>
                <a href={r.href} id={`board-title-${r.id}`}>
                  {r.title}
                </a>
              </td>
              <td>
                <a href={r.memberHref}>{r.member}</a>
              </td>
              <td>{r.status}</td>
              <td>{editor.editorName ?? labels.unassigned}</td>
              <td>{r.changed}</td>
              <td>
                {hydrated ? (
                  <button
                    type="button"
                    className="link-button assign-trigger"
                    aria-label={r.assignLabel}
                    aria-haspopup="dialog"
                    ref={(el) => {
                      if (el) triggers.current.set(r.id, el);
                      else triggers.current.delete(r.id);
                    }}
                    onClick={() => open(r)}
                  >
                    {labels.assign}
                  </button>
                ) : (
                  // Without JavaScript: the article page's form. Its name stays "Assign editor" (the
                  // title describes it), so that the row's link named by the title is the only one.
                  <a href={`${r.href}#assign`} aria-describedby={`board-title-${r.id}`}>
                    {labels.assign}
                  </a>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
      <p className="assign-status" role="status">
        {status}
      </p>
      {hydrated ? (
        <dialog ref={dialog} className="modal assign-modal" aria-labelledby="assign-modal-heading" aria-describedby="assign-modal-article" onClose={onClose}>
          {current ? (
            <form onSubmit={(e) => void onSubmit(e)} className="stack" noValidate>
              <h2 id="assign-modal-heading">{labels.heading}</h2>
              <p id="assign-modal-article">
                <span className="muted">{labels.articleLabel}</span> <strong>{current.title}</strong>
              </p>
              <div className={error ? 'field field-invalid' : 'field'}>
                <label htmlFor="assign-modal-editor">{labels.editorLabel}</label>
                <select
                  id="assign-modal-editor"
                  name="editorId"
                  value={choice}
                  onChange={(e) => setChoice(e.target.value)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? 'assign-modal-error' : undefined}
                >
                  <option value="">{labels.unassigned}</option>
                  {editors.map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.name}
                    </option>
                  ))}
                </select>
              </div>
              {error ? (
                <p className="field-error" id="assign-modal-error" role="alert">
                  {error}
                </p>
              ) : null}
              <div className="assign-modal-actions">
                <button type="submit" className="button" aria-disabled={saving ? true : undefined}>
                  {saving ? labels.saving : labels.submit}
                </button>
                <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
                  {labels.cancel}
                </button>
              </div>
            </form>
          ) : null}
        </dialog>
      ) : null}
    </>
  );
}
