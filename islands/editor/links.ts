// The link commands of the editors, apart from LinkBox.tsx so that the byline's lazy ProseMirror chunk needs no React.
import type { EditorView } from 'prosemirror-view';
import type { MarkType } from 'prosemirror-model';

/** Sets a link on the selection, or inserts the address as a linked text at an empty cursor. */
export function applyLink(view: EditorView, link: MarkType, url: string): void {
  const { empty, from, to } = view.state.selection;
  const tr = empty
    ? view.state.tr.insertText(url, from).addMark(from, from + url.length, link.create({ href: url }))
    : view.state.tr.removeMark(from, to, link).addMark(from, to, link.create({ href: url }));
  view.dispatch(tr);
  view.focus();
}

/** Removes the link under the selection, or the whole link around an empty cursor. */
export function removeLink(view: EditorView, link: MarkType): void {
  const { from, to, $from } = view.state.selection;
  if (from !== to) {
    view.dispatch(view.state.tr.removeMark(from, to, link));
    return;
  }
  $from.parent.forEach((child, offset) => {
    const start = $from.start() + offset;
    if (start <= from && from <= start + child.nodeSize && link.isInSet(child.marks)) view.dispatch(view.state.tr.removeMark(start, start + child.nodeSize, link));
  });
  view.focus();
}
