import { useEffect, useRef, useState } from 'react';
import { LinkBox, type LinkBoxLabels } from './editor/LinkBox.tsx';
import { SAFE_URL } from './editor/url.ts';
import { caretIn, type TextCaret } from './editor/caret.ts';
import type { BylineMeasure, BylineView } from './editor/byline-view.ts';

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

/** The ProseMirror half, fetched once, on the member's first sign of editing (a chunk of its own). */
let editorModule: Promise<typeof import('./editor/byline-view.ts')> | null = null;
const loadEditor = () => {
  editorModule ??= import('./editor/byline-view.ts').catch((e: unknown) => {
    editorModule = null; // offline for a moment: the next sign of editing tries again.
    throw e;
  });
  return editorModule;
};

/**
 * The saved byline as the light field's paragraph, built node by node in the live document from an
 * inert parse: only text and web or mail links survive, whatever the server sent back.
 */
function paragraphOf(html: string): HTMLParagraphElement {
  const p = document.createElement('p');
  const copy = (from: Node, to: Node) => {
    for (const node of from.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) to.appendChild(document.createTextNode(node.textContent ?? ''));
      else if (node instanceof Element && !/^(script|style|template|noscript)$/i.test(node.tagName)) {
        const href = node.tagName === 'A' ? (node.getAttribute('href') ?? '').trim() : '';
        if (href && SAFE_URL.test(href)) {
          const a = document.createElement('a');
          a.href = href;
          a.textContent = node.textContent;
          to.appendChild(a);
        } else copy(node, to);
      }
    }
  };
  copy(new DOMParser().parseFromString(html, 'text/html').body, p);
  if (!p.hasChildNodes()) p.appendChild(document.createElement('br'));
  return p;
}

/**
 * The byline (spec section 5): without JavaScript a plain field; hydrated, a one-paragraph editor
 * where Enter does nothing, a paste keeps only text and links, a link is added from the toolbar, the
 * count shows as you type, and Save Byline is disabled while saving or while the byline is invalid.
 *
 * Hydrated, the field is first a light contenteditable paragraph (the count, the checks and Save
 * already work); ProseMirror (about 58 KiB) is imported only when the member hovers, touches or
 * focuses the field, and then takes over the same element with what was typed, the focus and the caret.
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
  const view = useRef<BylineView | null>(null);
  /** Starts ProseMirror (once) and resolves with it. */
  const ensureView = useRef<() => Promise<BylineView>>(() => Promise.reject(new Error('not hydrated')));

  useEffect(() => {
    const field = document.createElement('div');
    field.className = 'rich-body byline-body';
    field.contentEditable = 'true';
    field.setAttribute('role', 'textbox');
    field.setAttribute('aria-labelledby', 'byline-label');
    field.setAttribute('aria-describedby', 'byline-count byline-hint');
    field.appendChild(paragraphOf(props.html));
    mount.current!.appendChild(field);

    const light = new AbortController();
    const on = <K extends keyof HTMLElementEventMap>(type: K, handler: (e: HTMLElementEventMap[K]) => void) => field.addEventListener(type, handler, { signal: light.signal });
    const measureLight = () => {
      setChars((field.textContent ?? '').replace(/\s+/g, ' ').trim().length);
      setLinks(field.querySelectorAll('a').length);
    };
    let caret: TextCaret | null = null;
    let started: Promise<BylineView> | null = null;
    let destroyed = false;
    ensureView.current = () =>
      (started ??= loadEditor().then(
        (m) => {
          if (destroyed) throw new Error('unmounted');
          light.abort();
          view.current = m.mountBylineView(field, caretIn(field) ?? caret, (next: BylineMeasure) => {
            setHtml(next.html);
            setChars(next.chars);
            setLinks(next.links);
            setHasLinkHere(next.hasLinkHere);
          });
          return view.current;
        },
        (e: unknown) => {
          started = null;
          throw e;
        },
      ));

    // Until ProseMirror arrives: one paragraph, no Enter, no formatting, no drops; a paste waits for it.
    on('beforeinput', (e) => {
      if (/^(insertParagraph|insertLineBreak|format|insertFromDrop|insertFromPaste)/.test(e.inputType)) e.preventDefault();
    });
    on('paste', (e) => {
      e.preventDefault();
      const pastedHtml = e.clipboardData?.getData('text/html') ?? '';
      const text = e.clipboardData?.getData('text/plain') ?? '';
      ensureView.current().then((v) => v.paste(pastedHtml, text), () => {});
    });
    on('input', () => {
      measureLight();
      setHtml(field.innerHTML);
    });
    // Where the caret was, for a link added from the toolbar before ProseMirror took over.
    on('focusout', () => {
      caret = caretIn(field) ?? caret;
    });
    measureLight();
    setEnhanced(true);

    // Back from the back-forward cache: the form is usable again.
    const pageShow = (e: PageTransitionEvent) => {
      if (e.persisted) setSaving(false);
    };
    window.addEventListener('pageshow', pageShow);
    return () => {
      destroyed = true;
      window.removeEventListener('pageshow', pageShow);
      light.abort();
      view.current?.destroy();
      field.remove();
    };
    // Mounted once with the page's initial value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** The member hovers, touches or focuses the byline: fetch the editor now. */
  const intent = () => {
    if (enhanced && !view.current) ensureView.current().catch(() => {});
  };
  const withView = (act: (v: BylineView) => void) => {
    ensureView.current().then(act, () => {});
  };

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
      <div className={shownError ? 'field field-invalid' : 'field'} onPointerEnter={intent} onTouchStart={intent} onFocus={intent}>
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
              <button type="button" className="tool" onMouseDown={(e) => e.preventDefault()} onClick={() => withView((v) => v.removeLink())}>
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
          <LinkBox
            labels={labels}
            onApply={(url) => withView((v) => v.addLink(url))}
            onClose={() => {
              setLinkOpen(false);
              withView((v) => v.focus());
            }}
          />
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
