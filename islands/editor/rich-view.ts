import { EditorState, type Command } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { DOMParser as SchemaParser, DOMSerializer } from 'prosemirror-model';
import { baseKeymap, chainCommands, exitCode, toggleMark } from 'prosemirror-commands';
import { keymap } from 'prosemirror-keymap';
import { history, redo, undo } from 'prosemirror-history';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import { cleanPastedHtml } from './clean.ts';
import { schema } from './schema.ts';
import { countWordsInText } from './words.ts';

/** The document as HTML, exactly as the schema writes it (what is saved). */
export function serialise(state: EditorState): string {
  const holder = document.createElement('div');
  holder.appendChild(DOMSerializer.fromSchema(schema).serializeFragment(state.doc.content));
  return holder.innerHTML;
}

/** Words as the server counts them: block boundaries are spaces. */
export const wordsOf = (state: EditorState) => countWordsInText(state.doc.textBetween(0, state.doc.content.size, ' ', ' '));

/** The first document: stored rich text, parsed inertly (nothing in it can run), or plain paragraphs. */
export function initialDoc(content: string | null, plainBody: string) {
  const inert = new DOMParser().parseFromString('', 'text/html');
  if (content !== null && content.trim()) inert.body.innerHTML = content;
  else for (const para of plainBody.split(/\n\s*\n/).filter((p) => p.trim())) inert.body.appendChild(Object.assign(inert.createElement('p'), { textContent: para }));
  return SchemaParser.fromSchema(schema).parse(inert.body);
}

const insertBreak: Command = (state, dispatch) => {
  dispatch?.(state.tr.replaceSelectionWith(schema.nodes.hard_break!.create()).scrollIntoView());
  return true;
};

/**
 * A ProseMirror view of the article schema with the editor's keys (undo, marks, lists, Shift-Enter
 * for a line break) and the client paste cleaning; `onChange` hears every transaction.
 */
export function createRichTextView(
  mount: HTMLElement,
  options: { content: string | null; plainBody: string; attributes: Record<string, string>; editable?: boolean; onChange: (state: EditorState, docChanged: boolean) => void },
): EditorView {
  const view: EditorView = new EditorView(mount, {
    state: EditorState.create({
      doc: initialDoc(options.content, options.plainBody),
      plugins: [
        history(),
        keymap({
          'Mod-z': undo,
          'Shift-Mod-z': redo,
          'Mod-y': redo,
          'Mod-b': toggleMark(schema.marks.strong!),
          'Mod-i': toggleMark(schema.marks.em!),
          'Mod-u': toggleMark(schema.marks.underline!),
          Enter: splitListItem(schema.nodes.list_item!),
          Tab: sinkListItem(schema.nodes.list_item!),
          'Shift-Tab': liftListItem(schema.nodes.list_item!),
          'Shift-Enter': chainCommands(exitCode, insertBreak),
        }),
        keymap(baseKeymap),
      ],
    }),
    attributes: { class: 'rich-body', role: 'textbox', 'aria-multiline': 'true', spellcheck: 'true', ...options.attributes },
    editable: () => options.editable ?? true,
    transformPastedHTML: cleanPastedHtml,
    dispatchTransaction(tr) {
      const next = view.state.apply(tr);
      view.updateState(next);
      options.onChange(next, tr.docChanged);
    },
  });
  return view;
}
