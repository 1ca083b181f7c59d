import { SAFE_URL } from './schema.ts';

/**
 * The client half of the paste sanitiser (the server's sanitize-html is the other): pasted HTML is
 * parsed inertly, scripts, styles, media and comments are dropped with their content, every element
 * outside the article's allowlist is unwrapped (its text kept), and every attribute goes except a
 * safe link target and an underline style. ProseMirror's schema then keeps only its own nodes.
 */
const KEEP = new Set(['P', 'BR', 'A', 'STRONG', 'B', 'EM', 'I', 'U', 'SPAN', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'LI']);
const DROP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'IFRAME', 'OBJECT', 'EMBED', 'NOSCRIPT', 'IMG', 'VIDEO', 'AUDIO', 'SVG', 'MATH', 'CANVAS', 'FORM', 'INPUT', 'BUTTON', 'SELECT', 'TEXTAREA', 'HEAD', 'TITLE', 'META', 'LINK']);
const BLOCKS = new Set(['DIV', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'BLOCKQUOTE', 'PRE', 'TABLE', 'TR', 'DT', 'DD', 'FIGURE', 'FIGCAPTION', 'ASIDE', 'MAIN', 'NAV']);

function cleanNode(node: Node, doc: Document): Node[] {
  if (node.nodeType === Node.TEXT_NODE) return [doc.createTextNode(node.textContent ?? '')];
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const el = node as Element;
  const tag = el.tagName.toUpperCase();
  if (DROP.has(tag)) return [];
  const children = Array.from(el.childNodes).flatMap((c) => cleanNode(c, doc));
  if (!KEEP.has(tag)) {
    // Layout blocks become paragraphs so pasted text keeps its breaks; other wrappers just unwrap.
    if (BLOCKS.has(tag) && children.some((c) => (c.textContent ?? '').trim() !== '')) {
      const p = doc.createElement('p');
      p.append(...children);
      return [p];
    }
    return children;
  }
  const out = doc.createElement(tag.toLowerCase());
  if (tag === 'A') {
    const href = (el.getAttribute('href') ?? '').trim();
    if (!SAFE_URL.test(href)) return children;
    out.setAttribute('href', href);
  }
  if (tag === 'SPAN') {
    const style = (el as HTMLElement).style;
    const underline = /underline/.test(style.textDecoration || style.textDecorationLine || '');
    const bold = /^(bold(er)?|[6-9]\d{2,})$/.test(style.fontWeight);
    const italic = style.fontStyle === 'italic';
    if (!underline && !bold && !italic) return children;
    let inner: Node[] = children;
    for (const [on, name] of [[underline, 'u'], [bold, 'strong'], [italic, 'em']] as const) {
      if (!on) continue;
      const wrap = doc.createElement(name);
      wrap.append(...inner);
      inner = [wrap];
    }
    return inner;
  }
  out.append(...children);
  return [out];
}

/** Pasted HTML in, HTML with only the allowed tags and attributes out. */
export function cleanPastedHtml(html: string): string {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const container = parsed.createElement('div');
  container.append(...Array.from(parsed.body.childNodes).flatMap((n) => cleanNode(n, parsed)));
  return container.innerHTML;
}
