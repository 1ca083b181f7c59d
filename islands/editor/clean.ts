import { SAFE_URL } from './url.ts';

/**
 * The client half of the paste sanitiser (the server's sanitize-html is the other): pasted HTML is
 * parsed inertly, scripts, styles, media and comments are dropped with their content, every element
 * outside the article's allowlist is unwrapped (its text kept), and every attribute goes except a
 * safe link target. A span styled underlined, bold or italic becomes <u>, <strong> or <em> (the CSP
 * refuses inline styles). ProseMirror's schema then keeps only its own nodes.
 */
const KEEP = new Set(['P', 'BR', 'A', 'STRONG', 'B', 'EM', 'I', 'U', 'SPAN', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'LI']);
const DROP = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'IFRAME', 'OBJECT', 'EMBED', 'NOSCRIPT', 'IMG', 'VIDEO', 'AUDIO', 'SVG', 'MATH', 'CANVAS', 'FORM', 'INPUT', 'BUTTON', 'SELECT', 'TEXTAREA', 'HEAD', 'TITLE', 'META', 'LINK']);
const BLOCKS = new Set(['DIV', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'BLOCKQUOTE', 'PRE', 'TABLE', 'TR', 'DT', 'DD', 'FIGURE', 'FIGCAPTION', 'ASIDE', 'MAIN', 'NAV']);

const BLOCK_OUT = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'LI']);

/** Declarations of an inline style attribute, read as text (inert documents may not compute styles). */
function styleOf(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (el.getAttribute('style') ?? '').split(';')) {
    const i = part.indexOf(':');
    if (i > 0) out[part.slice(0, i).trim().toLowerCase()] = part.slice(i + 1).trim().toLowerCase();
  }
  return out;
}

/** Runs of inline nodes become paragraphs; blocks pass through (no paragraph inside a paragraph). */
function asBlocks(nodes: Node[], doc: Document): Node[] {
  const out: Node[] = [];
  let run: Node[] = [];
  const flush = () => {
    if (run.some((n) => (n.textContent ?? '').trim() !== '')) {
      const p = doc.createElement('p');
      p.append(...run);
      out.push(p);
    }
    run = [];
  };
  for (const n of nodes) {
    if (n.nodeType === Node.ELEMENT_NODE && BLOCK_OUT.has((n as Element).tagName.toUpperCase())) {
      flush();
      out.push(n);
    } else run.push(n);
  }
  flush();
  return out;
}

function cleanNode(node: Node, doc: Document): Node[] {
  if (node.nodeType === Node.TEXT_NODE) return [doc.createTextNode(node.textContent ?? '')];
  if (node.nodeType !== Node.ELEMENT_NODE) return [];
  const el = node as Element;
  const tag = el.tagName.toUpperCase();
  if (DROP.has(tag)) return [];
  const children = Array.from(el.childNodes).flatMap((c) => cleanNode(c, doc));
  if (!KEEP.has(tag)) {
    // Layout blocks keep their breaks: inline runs inside them become paragraphs; other wrappers unwrap.
    return BLOCKS.has(tag) ? asBlocks(children, doc) : children;
  }
  const out = doc.createElement(tag.toLowerCase());
  if (tag === 'A') {
    const href = (el.getAttribute('href') ?? '').trim();
    if (!SAFE_URL.test(href)) return children;
    out.setAttribute('href', href);
  }
  if (tag === 'SPAN') {
    const style = styleOf(el);
    const underline = /underline/.test(`${style['text-decoration'] ?? ''} ${style['text-decoration-line'] ?? ''}`);
    const bold = /^(bold(er)?|[6-9]\d{2})$/.test(style['font-weight'] ?? '');
    const italic = style['font-style'] === 'italic';
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
  const nodes = Array.from(parsed.body.childNodes).flatMap((n) => cleanNode(n, parsed));
  // A paste of inline text alone stays inline (it joins the paragraph at the cursor).
  const hasBlocks = nodes.some((n) => n.nodeType === Node.ELEMENT_NODE && BLOCK_OUT.has((n as Element).tagName.toUpperCase()));
  container.append(...(hasBlocks ? asBlocks(nodes, parsed) : nodes));
  return container.innerHTML;
}

/** Byline paste: the cleaned HTML flattened to text and links in one paragraph (block breaks become spaces). */
export function cleanPastedByline(html: string): string {
  const parsed = new DOMParser().parseFromString(`<div>${cleanPastedHtml(html)}</div>`, 'text/html');
  const out = parsed.createElement('p');
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) out.append(parsed.createTextNode(child.textContent ?? ''));
      else if (child.nodeType === Node.ELEMENT_NODE) {
        const el = child as Element;
        if (el.tagName === 'A') {
          const a = parsed.createElement('a');
          a.setAttribute('href', el.getAttribute('href') ?? '');
          a.textContent = el.textContent;
          out.append(a);
        } else {
          walk(el);
          if (BLOCK_OUT.has(el.tagName) || el.tagName === 'BR') out.append(parsed.createTextNode(' '));
        }
      }
    }
  };
  walk(parsed.body);
  out.normalize();
  return out.outerHTML;
}
