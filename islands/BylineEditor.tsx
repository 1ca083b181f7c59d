import { useEffect, useRef, useState } from 'react';
import { EditorState } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { DOMParser as SchemaParser, DOMSerializer } from 'prosemirror-model';
import { baseKeymap } from 'prosemirror-commands';
import { keymap } from 'prosemirror-keymap';
import { history, redo, undo } from 'prosemirror-history';
import { cleanPastedByline } from './editor/clean.ts';
import { applyLink, LinkBox, removeLink, type LinkBoxLabels } from './editor/LinkBox.tsx';
import { bylineSchema } from './editor/schema.ts';

export type BylineEditorProps = {
  action: string;
  csrf: string;
  /** The saved byline (sanitised HTML: a paragraph with at most one link). */
  html: string;
  /** The same for the plain field without JavaScript: text, or the HTML when it has a link. */
  plain: string;
  error?: string;
  notice?: string;
  labels: LinkBoxLabels & Record<'label' | 'hint' | 'hintRich' | 'save' | 'count' | 'required' | 'tooLong' | 'tooManyLinks' | 'link' | 'unlink' | 'toolbar', string>;
};

const MAX_CHARS = 140;
const MAX_LINKS = 1;

/**
 * The byline (spec section 5): without JavaScript a plain field; hydrated, a one-paragraph editor
 * where Enter does nothing, a paste keeps only text and links, a link is added from the toolbar, the
 * count shows as you type, and Save Byline is disabled while saving or while the byline is invalid.
 */
export default function BylineEditor(props: BylineEditorProps) {
  const { labels } = props;
  const [enhanced, setEnhanced] = useState(false);
  const [html, setHtml] = useState(props.html);
  const [chars, setChars] = useState(0);
  const [links, setLinks] = useState(0);
  const [hasLinkHere, setHasLinkHere] = useState(false);
  const [linkOpen, setLinkOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const mount = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);

  useEffect(() => {
    // Parsed inertly: nothing in the value can run, whatever the server sent back.
    const holder = new DOMParser().parseFromString('', 'text/html').body;
    holder.innerHTML = props.html;
    const measure = (state: EditorState) => {
      const holderOut = document.createElement('div');
      holderOut.appendChild(DOMSerializer.fromSchema(bylineSchema).serializeFragment(state.doc.content));
      setHtml(holderOut.innerHTML);
      setChars(state.doc.textContent.replace(/\s+/g, ' ').trim().length);
      setLinks(holderOut.querySelectorAll('a').length);
      const { $from, from, to, empty } = state.selection;
      const link = bylineSchema.marks.link!;
      setHasLinkHere(empty ? !!link.isInSet(state.storedMarks ?? $from.marks()) : state.doc.rangeHasMark(from, to, link));
    };
    const editor = new EditorView(mount.current!, {
      state: EditorState.create({
        doc: SchemaParser.fromSchema(bylineSchema).parse(holder),
        plugins: [history(), keymap({ 'Mod-z': undo, 'Shift-Mod-z': redo, 'Mod-y': redo, Enter: () => true, 'Shift-Enter': () => true }), keymap(baseKeymap)],
      }),
      attributes: { class: 'rich-body byline-body', role: 'textbox', 'aria-labelledby': 'byline-label', 'aria-describedby': 'byline-count byline-hint' },
      transformPastedHTML: cleanPastedByline,
      // Plain-text pastes lose their line breaks: the byline is one paragraph.
      transformPastedText: (text) => text.replace(/\s*\n\s*/g, ' '),
      dispatchTransaction(tr) {
        const next = editor.state.apply(tr);
        editor.updateState(next);
        measure(next);
      },
    });
    view.current = editor;
    measure(editor.state);
    setEnhanced(true);
    // Back from the back-forward cache: the form is usable again.
    const pageShow = (e: PageTransitionEvent) => {
      if (e.persisted) setSaving(false);
    };
    window.addEventListener('pageshow', pageShow);
    return () => {
      window.removeEventListener('pageshow', pageShow);
      editor.destroy();
    };
    // Mounted once with the page's initial value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const problem = !enhanced ? props.error : chars === 0 ? labels.required : chars > MAX_CHARS ? labels.tooLong : links > MAX_LINKS ? labels.tooManyLinks : undefined;
  const shownError = enhanced ? (problem && (chars > 0 || props.error) ? problem : undefined) : props.error;

  return (
    <form method="post" action={props.action} className="stack" noValidate onSubmit={() => setSaving(true)}>
      <input type="hidden" name="_csrf" value={props.csrf} />
      {props.notice ? (
        <div className="alert alert-success" role="status">
          {props.notice}
        </div>
      ) : null}
      <div className={shownError ? 'field field-invalid' : 'field'}>
        {enhanced ? (
          <span className="label" id="byline-label">
            {labels.label}
          </span>
        ) : (
          <label htmlFor="byline" id="byline-label">
            {labels.label}
          </label>
        )}
        {enhanced ? (
          <div className="toolbar" role="toolbar" aria-label={labels.toolbar}>
            {hasLinkHere ? (
              <button type="button" className="tool" onMouseDown={(e) => e.preventDefault()} onClick={() => view.current && removeLink(view.current, bylineSchema.marks.link!)}>
                {labels.unlink}
              </button>
            ) : (
              <button type="button" className="tool" aria-expanded={linkOpen} disabled={links >= MAX_LINKS} onClick={() => setLinkOpen((o) => !o)}>
                {labels.link}
              </button>
            )}
          </div>
        ) : null}
        {enhanced && linkOpen ? (
          <LinkBox labels={labels} onApply={(url) => view.current && applyLink(view.current, bylineSchema.marks.link!, url)} onClose={() => {
              setLinkOpen(false);
              view.current?.focus();
            }} />
        ) : null}
        <div ref={mount} hidden={!enhanced} />
        {enhanced ? (
          <input type="hidden" name="byline" value={html} />
        ) : (
          <textarea id="byline" name="byline" rows={3} maxLength={2000} defaultValue={props.plain} aria-invalid={props.error ? true : undefined} aria-describedby={props.error ? 'byline-hint byline-error' : 'byline-hint'} />
        )}
        <p className="field-hint" id="byline-hint">
          {enhanced ? labels.hintRich : labels.hint}
        </p>
        {enhanced ? (
          <p className={chars > MAX_CHARS ? 'word-count word-count-over' : 'word-count'} id="byline-count">
            {labels.count.replace('{n}', String(chars))}
          </p>
        ) : null}
        {shownError ? (
          <p className="field-error" id="byline-error">
            {shownError}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={enhanced && (saving || problem !== undefined)}>
        {labels.save}
      </button>
    </form>
  );
}
