import { Schema, type DOMOutputSpec, type MarkSpec, type NodeSpec } from 'prosemirror-model';
import { SAFE_URL } from './url.ts';

export { SAFE_URL };

/**
 * The article's rich text as a ProseMirror schema: exactly the tags spec section 5 allows (paragraph,
 * link, bold, italics, headings, lists, underlined span). Anything else a user types or pastes cannot
 * exist in the document, and what is serialised is what the server's sanitiser keeps.
 */
const nodes: Record<string, NodeSpec> = {
  doc: { content: 'block+' },
  paragraph: { content: 'inline*', group: 'block', parseDOM: [{ tag: 'p' }, { tag: 'div', priority: 10 }], toDOM: (): DOMOutputSpec => ['p', 0] },
  heading: {
    attrs: { level: { default: 2 } },
    content: 'inline*',
    group: 'block',
    defining: true,
    parseDOM: [
      { tag: 'h1', attrs: { level: 2 } },
      { tag: 'h2', attrs: { level: 2 } },
      { tag: 'h3', attrs: { level: 3 } },
      { tag: 'h4', attrs: { level: 3 } },
      { tag: 'h5', attrs: { level: 3 } },
      { tag: 'h6', attrs: { level: 3 } },
    ],
    toDOM: (node): DOMOutputSpec => [`h${node.attrs.level === 3 ? 3 : 2}`, 0],
  },
  bullet_list: { content: 'list_item+', group: 'block', parseDOM: [{ tag: 'ul' }], toDOM: (): DOMOutputSpec => ['ul', 0] },
  ordered_list: { content: 'list_item+', group: 'block', parseDOM: [{ tag: 'ol' }], toDOM: (): DOMOutputSpec => ['ol', 0] },
  list_item: { content: 'paragraph block*', defining: true, parseDOM: [{ tag: 'li' }], toDOM: (): DOMOutputSpec => ['li', 0] },
  text: { group: 'inline' },
  hard_break: { inline: true, group: 'inline', selectable: false, parseDOM: [{ tag: 'br' }], toDOM: (): DOMOutputSpec => ['br'] },
};

const marks: Record<string, MarkSpec> = {
  link: {
    attrs: { href: {} },
    inclusive: false,
    parseDOM: [
      {
        tag: 'a[href]',
        getAttrs: (dom) => {
          const href = (dom as HTMLElement).getAttribute('href') ?? '';
          return SAFE_URL.test(href.trim()) ? { href: href.trim() } : false;
        },
      },
    ],
    toDOM: (mark): DOMOutputSpec => ['a', { href: mark.attrs.href }, 0],
  },
  strong: {
    parseDOM: [
      { tag: 'strong' },
      { tag: 'b', getAttrs: (dom) => ((dom as HTMLElement).style.fontWeight !== 'normal' ? null : false) },
      { style: 'font-weight', getAttrs: (value) => (/^(bold(er)?|[6-9]\d{2})$/.test(value as string) ? null : false) },
    ],
    toDOM: (): DOMOutputSpec => ['strong', 0],
  },
  em: { parseDOM: [{ tag: 'em' }, { tag: 'i' }, { style: 'font-style=italic' }], toDOM: (): DOMOutputSpec => ['em', 0] },
  underline: {
    parseDOM: [{ tag: 'u' }, { style: 'text-decoration', getAttrs: (v) => (/underline/.test(v as string) ? null : false) }, { style: 'text-decoration-line', getAttrs: (v) => (/underline/.test(v as string) ? null : false) }],
    // <u>, not a styled span: the CSP refuses inline styles, and the server stores <u>.
    toDOM: (): DOMOutputSpec => ['u', 0],
  },
};

export const schema = new Schema({ nodes, marks });

/** The byline (spec section 5): one paragraph of plain text with links, Enter blocked. */
export const bylineSchema = new Schema({
  nodes: {
    doc: { content: 'paragraph' },
    paragraph: { content: 'text*', marks: 'link', parseDOM: [{ tag: 'p' }], toDOM: (): DOMOutputSpec => ['p', 0] },
    text: {},
  },
  marks: { link: marks.link! },
});
