// The byline's ProseMirror view. The byline island imports this module only when the member shows
// an intent to edit (hovers, touches or focuses the field), so that the settings page does not load
// ProseMirror on every visit (issue 10: at most 100 KiB of JS on the wire).
import { EditorState, TextSelection } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { DOMParser as SchemaParser, DOMSerializer } from 'prosemirror-model';
import { baseKeymap } from 'prosemirror-commands';
import { keymap } from 'prosemirror-keymap';
import { history, redo, undo } from 'prosemirror-history';
import { cleanPastedByline } from './clean.ts';
import { applyLink, removeLink } from './links.ts';
import { bylineSchema } from './schema.ts';
import type { TextCaret } from './caret.ts';

/** What the island shows and posts: the byline's HTML, its length in characters, its links, and whether the caret is on a link. */
export type BylineMeasure = { html: string; chars: number; links: number; hasLinkHere: boolean };

export type BylineView = {
  addLink(url: string): void;
  removeLink(): void;
  /** A paste that arrived before the view did, handled as the view handles its own. */
  paste(html: string, text: string): void;
  focus(): void;
  destroy(): void;
};

/**
 * Turns the light field (a contenteditable holding one paragraph of text and links) into the
 * ProseMirror editor in place: the same element, what was typed in it, its focus and its caret (as
 * text offsets: where the caret is now, or where it was when the member left the field).
 */
export function mountBylineView(field: HTMLElement, caret: TextCaret | null, onChange: (m: BylineMeasure) => void): BylineView {
  const hadFocus = field.ownerDocument.activeElement === field;
  const copy = field.cloneNode(true) as HTMLElement;
  // A contenteditable keeps a <br> in an empty paragraph; the byline has no line breaks.
  for (const br of copy.querySelectorAll('br')) br.remove();
  // The field is white-space: pre-wrap: the spaces the member typed are kept as they see them.
  const doc = SchemaParser.fromSchema(bylineSchema).parse(copy, { preserveWhitespace: true });
  const end = doc.content.size - 1;
  const at = (n: number) => Math.max(1, Math.min(1 + n, end));
  const selection = caret ? TextSelection.create(doc, at(caret.anchor), at(caret.head)) : undefined;

  const measure = (state: EditorState) => {
    const out = document.createElement('div');
    out.appendChild(DOMSerializer.fromSchema(bylineSchema).serializeFragment(state.doc.content));
    const { $from, from, to, empty } = state.selection;
    const link = bylineSchema.marks.link!;
    onChange({
      html: out.innerHTML,
      chars: state.doc.textContent.replace(/\s+/g, ' ').trim().length,
      links: out.querySelectorAll('a').length,
      hasLinkHere: empty ? !!link.isInSet(state.storedMarks ?? $from.marks()) : state.doc.rangeHasMark(from, to, link),
    });
  };
  const view: EditorView = new EditorView(
    { mount: field },
    {
      state: EditorState.create({
        doc,
        selection,
        plugins: [history(), keymap({ 'Mod-z': undo, 'Shift-Mod-z': redo, 'Mod-y': redo, Enter: () => true, 'Shift-Enter': () => true }), keymap(baseKeymap)],
      }),
      attributes: { class: 'rich-body byline-body', role: 'textbox', 'aria-labelledby': 'byline-label', 'aria-describedby': 'byline-count byline-hint' },
      transformPastedHTML: cleanPastedByline,
      // Plain-text pastes lose their line breaks: the byline is one paragraph.
      transformPastedText: (text) => text.replace(/\s*\n\s*/g, ' '),
      dispatchTransaction(tr) {
        const next = view.state.apply(tr);
        view.updateState(next);
        measure(next);
      },
    },
  );
  if (hadFocus) view.focus();
  measure(view.state);
  return {
    addLink: (url) => applyLink(view, bylineSchema.marks.link!, url),
    removeLink: () => removeLink(view, bylineSchema.marks.link!),
    paste: (html, text) => {
      if (html) view.pasteHTML(html);
      else if (text) view.pasteText(text);
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
