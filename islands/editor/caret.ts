/** A caret or selection as character offsets into an element's text. */
export type TextCaret = { anchor: number; head: number };

/** The selection inside `root` as offsets into its text, or null when it is elsewhere. */
export function caretIn(root: HTMLElement): TextCaret | null {
  const sel = root.ownerDocument.getSelection();
  if (!sel || !sel.anchorNode || !sel.focusNode || !root.contains(sel.anchorNode) || !root.contains(sel.focusNode)) return null;
  const offset = (node: Node, at: number) => {
    const range = root.ownerDocument.createRange();
    range.setStart(root, 0);
    range.setEnd(node, at);
    return range.toString().length;
  };
  return { anchor: offset(sel.anchorNode, sel.anchorOffset), head: offset(sel.focusNode, sel.focusOffset) };
}
