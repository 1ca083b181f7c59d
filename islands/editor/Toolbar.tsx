import { useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { EditorState, Command } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { MarkType } from 'prosemirror-model';
import { setBlockType, toggleMark } from 'prosemirror-commands';
import { liftListItem, wrapInList } from 'prosemirror-schema-list';
import { LinkBox, type LinkBoxLabels } from './LinkBox.tsx';
import { applyLink, removeLink } from './links.ts';
import { schema } from './schema.ts';

export type ToolbarLabels = LinkBoxLabels &
  Record<'toolbar' | 'bold' | 'italic' | 'underline' | 'heading' | 'subheading' | 'bulletList' | 'numberedList' | 'link' | 'unlink', string>;

function markActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks ?? $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

function blockIs(state: EditorState, name: string, level?: number): boolean {
  const parent = state.selection.$from.parent;
  return parent.type.name === name && (level === undefined || parent.attrs.level === level);
}

function inList(state: EditorState, name: 'bullet_list' | 'ordered_list'): boolean {
  const { $from } = state.selection;
  for (let d = $from.depth; d > 0; d--) if ($from.node(d).type.name === name) return true;
  return false;
}

const toggleBlock =
  (level: number): Command =>
  (st, dispatch) =>
    blockIs(st, 'heading', level) ? setBlockType(schema.nodes.paragraph!)(st, dispatch) : setBlockType(schema.nodes.heading!, { level })(st, dispatch);
const toggleList =
  (name: 'bullet_list' | 'ordered_list'): Command =>
  (st, dispatch) =>
    inList(st, name) ? liftListItem(schema.nodes.list_item!)(st, dispatch) : wrapInList(schema.nodes[name]!)(st, dispatch);

/**
 * The formatting toolbar of the article editors: the pressed state follows the selection; mousedown
 * is cancelled so the editor keeps its selection, and click (mouse or keyboard) runs the command.
 */
export function RichToolbar({ view, state, labels, controls }: { view: EditorView; state: EditorState; labels: ToolbarLabels; controls: string }) {
  const [linkOpen, setLinkOpen] = useState(false);
  const run = (command: Command) => (e: ReactMouseEvent) => {
    e.preventDefault();
    command(view.state, view.dispatch, view);
    view.focus();
  };
  const tool = (label: string, pressed: boolean, command: Command, glyph: string) => (
    <button type="button" className="tool" aria-pressed={pressed} title={label} onMouseDown={(e) => e.preventDefault()} onClick={run(command)}>
      <span aria-hidden="true">{glyph}</span>
      <span className="visually-hidden">{label}</span>
    </button>
  );
  const link = schema.marks.link!;
  return (
    <>
      <div className="toolbar" role="toolbar" aria-label={labels.toolbar} aria-controls={controls}>
        {tool(labels.bold, markActive(state, schema.marks.strong!), toggleMark(schema.marks.strong!), 'B')}
        {tool(labels.italic, markActive(state, schema.marks.em!), toggleMark(schema.marks.em!), 'I')}
        {tool(labels.underline, markActive(state, schema.marks.underline!), toggleMark(schema.marks.underline!), 'U')}
        {tool(labels.heading, blockIs(state, 'heading', 2), toggleBlock(2), 'H2')}
        {tool(labels.subheading, blockIs(state, 'heading', 3), toggleBlock(3), 'H3')}
        {tool(labels.bulletList, inList(state, 'bullet_list'), toggleList('bullet_list'), '•')}
        {tool(labels.numberedList, inList(state, 'ordered_list'), toggleList('ordered_list'), '1.')}
        {markActive(state, link) ? (
          <button type="button" className="tool tool-text" onMouseDown={(e) => e.preventDefault()} onClick={run((_st, dispatch) => (dispatch ? (removeLink(view, link), true) : true))}>
            {labels.unlink}
          </button>
        ) : (
          // A word, not an emoji: an emoji font is not on every reader's device.
          <button type="button" className="tool tool-text" aria-expanded={linkOpen} onClick={() => setLinkOpen((o) => !o)}>
            {labels.link}
          </button>
        )}
      </div>
      {linkOpen ? (
        <LinkBox
          labels={labels}
          onApply={(url) => applyLink(view, link, url)}
          onClose={() => {
            setLinkOpen(false);
            view.focus();
          }}
        />
      ) : null}
    </>
  );
}
