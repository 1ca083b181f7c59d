import { useEffect, useRef, useState } from 'react';
import type { EditorState } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import { createRichTextView, serialise, wordsOf } from './editor/rich-view.ts';
import { RichToolbar, type ToolbarLabels } from './editor/Toolbar.tsx';

export type RichTextFormProps = {
  action: string;
  csrf: string;
  /** Hidden fields posted with the form. */
  hidden?: Record<string, string>;
  /** Prefix of the element ids, so the form can sit on a page with other fields. */
  idPrefix: string;
  title: string;
  /** The stored rich text. */
  content: string;
  /** The same as plain paragraphs (the field without JavaScript). */
  plainBody: string;
  errors: Record<string, string>;
  labels: ToolbarLabels & Record<'title' | 'body' | 'hint' | 'hintRich' | 'save' | 'wordCount', string>;
};

/**
 * The editors' form for an article's text on the board. Without JavaScript a title and a plain body
 * (paragraphs only: formatting does not survive it, the hint says so); hydrated, the same rich-text
 * editor the member uses, so an editor's correction keeps the author's links, headings and lists.
 */
export default function RichTextForm(props: RichTextFormProps) {
  const { labels, idPrefix: id } = props;
  const [enhanced, setEnhanced] = useState(false);
  const [html, setHtml] = useState(props.content);
  const [words, setWords] = useState<number | null>(null);
  const [state, setState] = useState<EditorState | null>(null);
  const mount = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);

  useEffect(() => {
    const typed = (document.getElementById(`${id}-content`) as HTMLTextAreaElement | null)?.value;
    const bodyTyped = typed !== undefined && typed !== props.plainBody;
    const editor = createRichTextView(mount.current!, {
      content: bodyTyped ? null : props.content,
      plainBody: bodyTyped ? typed : props.plainBody,
      attributes: {
        id: `${id}-editable`,
        'aria-labelledby': `${id}-label`,
        'aria-describedby': props.errors.content ? `${id}-count ${id}-content-error` : `${id}-count`,
        ...(props.errors.content ? { 'aria-invalid': 'true' } : {}),
      },
      onChange(next, docChanged) {
        setState(next);
        if (!docChanged) return;
        setHtml(serialise(next));
        setWords(wordsOf(next));
      },
    });
    view.current = editor;
    setState(editor.state);
    setHtml(serialise(editor.state));
    setWords(wordsOf(editor.state));
    setEnhanced(true);
    return () => editor.destroy();
    // Mounted once with the page's text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const invalid = (f: string) => (props.errors[f] ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${f}-error` } : {});
  const message = (f: string) =>
    props.errors[f] ? (
      <p className="field-error" id={`${id}-${f}-error`}>
        {props.errors[f]}
      </p>
    ) : null;
  return (
    <form method="post" action={props.action} className="stack" noValidate>
      <input type="hidden" name="_csrf" value={props.csrf} />
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className={props.errors.title ? 'field field-invalid' : 'field'}>
        <label htmlFor={`${id}-title`}>{labels.title}</label>
        <input id={`${id}-title`} name="title" defaultValue={props.title} required {...invalid('title')} />
        {message('title')}
      </div>
      <div className={props.errors.content ? 'field field-invalid' : 'field'}>
        {enhanced ? (
          <span className="label" id={`${id}-label`} onClick={() => view.current?.focus()}>
            {labels.body}
          </span>
        ) : (
          <label htmlFor={`${id}-content`} id={`${id}-label`}>
            {labels.body}
          </label>
        )}
        <p className="field-hint" id={`${id}-content-hint`}>
          {enhanced ? labels.hintRich : labels.hint}
        </p>
        {enhanced && state && view.current ? <RichToolbar view={view.current} state={state} labels={labels} controls={`${id}-editable`} /> : null}
        <div ref={mount} hidden={!enhanced} />
        {enhanced ? (
          <input type="hidden" name="content" value={html} />
        ) : (
          <textarea
            id={`${id}-content`}
            name="body"
            rows={16}
            defaultValue={props.plainBody}
            required
            aria-invalid={props.errors.content ? true : undefined}
            aria-describedby={props.errors.content ? `${id}-content-hint ${id}-content-error` : `${id}-content-hint`}
          />
        )}
        {enhanced && words !== null ? (
          <p className="word-count" id={`${id}-count`}>
            {labels.wordCount.replace('{n}', String(words))}
          </p>
        ) : null}
        {message('content')}
      </div>
      <button type="submit" className="button">
        {labels.save}
      </button>
    </form>
  );
}
