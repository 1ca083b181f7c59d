/**
 * Plain text of stored HTML, shared by every area: the text a reader sees, and its word count (spec
 * section 5). Pure functions, no dependencies.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * The character a numeric reference stands for. As browsers read it: a code point beyond U+10FFFF
 * (`&#99999999;`), a surrogate or zero is U+FFFD, the replacement character; nothing here throws.
 */
export function characterReference(codePoint: number): string {
  if (!Number.isSafeInteger(codePoint) || codePoint <= 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(codePoint);
}

/** Markup stripped, entities decoded: the text a reader sees. */
export function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/h[1-6]|\/li|\/div)\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/gi, (m, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return characterReference(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return characterReference(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? m;
    });
}

/** Words after stripping markup (spec section 5): runs of non-space characters. */
export function countWords(html: string): number {
  const text = plainText(html).trim();
  return text === '' ? 0 : text.split(/\s+/).length;
}

/** The first words of a text, on one line, cut at a word boundary with an ellipsis when longer than `max` characters. */
export function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}
