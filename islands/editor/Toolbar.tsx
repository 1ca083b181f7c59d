import { useRef, useState, type FocusEvent as ReactFocusEvent, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent as ReactMouseEvent } from 'react';
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

/** The toolbar's buttons, in order: the roving tab stop moves among them. */
const buttonsOf = (bar: HTMLElement | null) => [...(bar?.querySelectorAll<HTMLButtonElement>(':scope > button') ?? [])];

/**
 * The formatting toolbar of the article editors: the pressed state follows the selection; mousedown
 * is cancelled so the editor keeps its selection, and click (mouse or keyboard) runs the command.
 * It is one Tab stop (the ARIA toolbar pattern): the arrow keys move between its buttons, Home and
 * End go to the first and the last, and Tab comes back to the button last used (roving tabindex).
 */
export function RichToolbar({ view, state, labels, controls }: { view: EditorView; state: EditorState; labels: ToolbarLabels; controls: string }) {
  const [linkOpen, setLinkOpen] = useState(false);
  const [current, setCurrent] = useState(0);
  const bar = useRef<HTMLDivElement>(null);
  const stop = (index: number) => (index === current ? 0 : -1);
  const onFocus = (e: ReactFocusEvent<HTMLDivElement>) => {
    const index = buttonsOf(bar.current).indexOf(e.target as unknown as HTMLButtonElement);
    if (index >= 0) setCurrent(index);
  };
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    const buttons = buttonsOf(bar.current);
    const index = buttons.indexOf(e.target as HTMLButtonElement);
    if (index < 0) return;
    const last = buttons.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    setCurrent(next);
    buttons[next]!.focus();
  };
  const run = (command: Command) => (e: ReactMouseEvent) => {
    e.preventDefault();
    command(view.state, view.dispatch, view);
    view.focus();
  };
  const tool = (index: number, label: string, pressed: boolean, command: Command, glyph: string) => (
    <button type="button" className="tool" tabIndex={stop(index)} aria-pressed={pressed} title={label} onMouseDown={(e) => e.preventDefault()} onClick={run(command)}>
      <span aria-hidden="true">{glyph}</span>
      <span className="visually-hidden">{label}</span>
    </button>
  );
  const link = schema.marks.link!;
  return (
    <>
      <div className="toolbar" role="toolbar" aria-label={labels.toolbar} aria-controls={controls} ref={bar} onFocus={onFocus} onKeyDown={onKeyDown}>
        {tool(0, labels.bold, markActive(state, schema.marks.strong!), toggleMark(schema.marks.strong!), 'B')}
        {tool(1, labels.italic, markActive(state, schema.marks.em!), toggleMark(schema.marks.em!), 'I')}
        {tool(2, labels.underline, markActive(state, schema.marks.underline!), toggleMark(schema.marks.underline!), 'U')}
        {tool(3, labels.heading, blockIs(state, 'heading', 2), toggleBlock(2), 'H2')}
        {tool(4, labels.subheading, blockIs(state, 'heading', 3), toggleBlock(3), 'H3')}
        {tool(5, labels.bulletList, inList(state, 'bullet_list'), toggleList('bullet_list'), '•')}
        {tool(6, labels.numberedList, inList(state, 'ordered_list'), toggleList('ordered_list'), '1.')}
        {markActive(state, link) ? (
          <button type="button" className="tool tool-text" tabIndex={stop(7)} onMouseDown={(e) => e.preventDefault()} onClick={run((_st, dispatch) => (dispatch ? (removeLink(view, link), true) : true))}>
            {labels.unlink}
          </button>
        ) : (
          // A word, not an emoji: an emoji font is not on every reader's device.
          <button type="button" className="tool tool-text" tabIndex={stop(7)} aria-expanded={linkOpen} onClick={() => setLinkOpen((o) => !o)}>
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
