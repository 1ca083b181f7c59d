import sanitizeHtml from 'sanitize-html';

/**
 * Rich text, shared by every area that stores member-written HTML (articles, forum, expert panels,
 * onboarding): the one sanitiser, and the light plain-field formatting that turns typed text into that
 * HTML and back.
 */

/** An underline written as an inline style (`text-decoration` or `text-decoration-line`). */
const UNDERLINE_STYLE = /(^|;)\s*text-decoration(-line)?\s*:[^;]*\bunderline\b/i;

/**
 * The rich text of spec section 5: paragraph, link, bold, italics, headings, lists, underline.
 * Underline is stored as `<u>`: the CSP refuses inline styles, so a `<span style>` never showed. An
 * underlined span (what older revisions and pasted text hold) becomes `<u>`; any other span is
 * unwrapped, its text kept.
 */
const RICH_TEXT: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'a', 'strong', 'b', 'em', 'i', 'h1', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'u'],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: {
    b: 'strong',
    i: 'em',
    span: (_tagName, attribs) => ({ tagName: UNDERLINE_STYLE.test(attribs.style ?? '') ? 'u' : 'span', attribs: {} }),
  },
};

export const cleanRichText = (html: string) => sanitizeHtml(html, RICH_TEXT);

/*
 * A plain message field (the forum's, the expert panels') is a plain textarea (it works the same with
 * JavaScript off, and keeps the list and post pages free of an editor bundle). A little formatting
 * survives it: paragraphs (a blank line), line breaks, lists ("- " lines), **bold**, *italics* and bare
 * links. textToHtml turns the typed text into HTML for the services (which sanitise it with
 * cleanRichText) and htmlToText turns stored HTML back into the same text for the edit forms. Mentions
 * (`@username`) stay text: the service links them.
 */

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A bare link, found in the raw text (so `&`, `<`, `"` are seen as typed, not as their escapes). */
const URL_RE = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'’*]/g;
/** Private-use marks standing for a link while the rest of the line is escaped and formatted. */
const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';
const MARK_RE = /\uE000(\d+)\uE001/g;

function inline(raw: string): string {
  const line = raw.replace(/[\uE000\uE001]/g, '');
  const links: string[] = [];
  const marked = line.replace(URL_RE, (url) => {
    links.push(url);
    return `${MARK_OPEN}${links.length - 1}${MARK_CLOSE}`;
  });
  let html = escapeHtml(marked);
  html = html.replace(/\*\*(?=\S)([^*]*?\S)\*\*/g, '<strong>$1</strong>');
  html = html.replace(/(^|[^*\w])\*(?=\S)([^*]*?\S)\*(?![*\w])/g, '$1<em>$2</em>');
  return html.replace(MARK_RE, (_m, i: string) => {
    const url = escapeHtml(links[Number(i)]!);
    return `<a href="${url}">${url}</a>`;
  });
}

/** Typed text to HTML: blocks split by blank lines; a block of "- " lines is a list. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((block) => block.split('\n').map((l) => l.trim()).filter(Boolean))
    .filter((lines) => lines.length > 0)
    .map((lines) =>
      lines.every((l) => /^[-*•]\s+/.test(l))
        ? `<ul>${lines.map((l) => `<li>${inline(l.replace(/^[-*•]\s+/, ''))}</li>`).join('')}</ul>`
        : `<p>${lines.map(inline).join('<br>')}</p>`,
    )
    .join('');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
const decode = (s: string) =>
  s.replace(/&(#x?[0-9a-f]+|[a-z0-9]+);/gi, (m, e: string) => {
    if (ENTITIES[e] !== undefined) return ENTITIES[e];
    if (e.startsWith('#x') || e.startsWith('#X')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return m;
  });

/** Stored (sanitised) HTML back to the text the field takes: the inverse of textToHtml, near enough for other HTML. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/\r?\n/g, ' ')
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gi, (_m, href: string, inner: string) => {
      const label = inner.replace(/<[^>]*>/g, '');
      const url = decode(href);
      // A mention (its text is @name) and a bare link give back their text; another link its label and address.
      return label.startsWith('@') || decode(label) === url ? label : `${label} (${escapeHtml(url)})`;
    })
    .replace(/<\/?(strong|b)>/gi, '**')
    .replace(/<\/?(em|i)>/gi, '*')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<\/li>/gi, '\n')
    .replace(/<\/(p|h[1-6]|ul|ol)>/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decode(text)
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
