import { plainText } from '#src/lib/plain-text.ts';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The body for the plain field of the no-JavaScript editor: one blank line between paragraphs. */
export function htmlToPlainParagraphs(html: string): string {
  return html
    .split(/<\/(?:p|h[1-6]|li)>/i)
    .map((block) => plainText(block).replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
}

/** Back from the plain field: each paragraph (separated by a blank line) becomes a <p>. */
export function plainParagraphsToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('');
}
