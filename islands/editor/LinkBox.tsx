import { useState } from 'react';
import type { EditorView } from 'prosemirror-view';
import type { MarkType } from 'prosemirror-model';
import { SAFE_URL } from './url.ts';

export type LinkBoxLabels = { linkUrl: string; linkInvalid: string; apply: string; cancel: string };

/** An address as typed, made whole (example.com → https://example.com), or null if it is not a web or mail address. */
export function normaliseUrl(typed: string): string | null {
  let url = typed.trim();
  if (url && !/^[a-z]+:/i.test(url)) url = `https://${url}`;
  return SAFE_URL.test(url) && /^(mailto:[^\s@]+@[^\s@]+|https?:\/\/[^\s/]+\.[^\s]+)$/i.test(url) ? url : null;
}

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

/** The small form under a toolbar for a link's address. */
export function LinkBox({ labels, onApply, onClose }: { labels: LinkBoxLabels; onApply: (url: string) => void; onClose: () => void }) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const apply = () => {
    const url = normaliseUrl(value);
    if (!url) return setInvalid(true);
    onApply(url);
    onClose();
  };
  return (
    <div className="link-box">
      <label htmlFor="link-url">{labels.linkUrl}</label>
      <input
        id="link-url"
        type="url"
        value={value}
        autoFocus
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          }
          if (e.key === 'Escape') onClose();
        }}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? 'link-error' : undefined}
      />
      <button type="button" className="button button-secondary" onClick={apply}>
        {labels.apply}
      </button>
      <button type="button" className="link-button" onClick={onClose}>
        {labels.cancel}
      </button>
      {invalid ? (
        <p className="field-error" id="link-error">
          {labels.linkInvalid}
        </p>
      ) : null}
    </div>
  );
}
