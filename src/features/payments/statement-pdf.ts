import PDFDocument from 'pdfkit';
import { formatDate } from '#shared/format.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { StatementDetail } from './billing.ts';
import { formatMoney } from './money.ts';

/**
 * A statement as a PDF (docs/decisions/0028-statement-pdf.md): pdfkit with its built-in Helvetica, so
 * nothing is read from disk and the bytes are the same on every machine. The standard fonts speak
 * WinAnsi (Latin-1 and a few more); any other character prints as "?" rather than as garbage.
 * Streams are left uncompressed: a one-page statement is a few kilobytes either way, and its text
 * stays searchable by tests and tools.
 */

/** Unicode characters WinAnsi adds beyond Latin-1 (0x80..0x9f in cp1252). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can print: control characters dropped, others outside WinAnsi as "?". */
export function printable(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      if (ch === '\t') out += ' ';
      continue;
    }
    out += code <= 0xff || WIN_ANSI_EXTRA.has(ch) ? ch : '?';
  }
  return out;
}

export async function renderStatementPdf(statement: StatementDetail, t: Translate): Promise<Buffer> {
  const k = (key: string, values?: Record<string, unknown>) => printable(t(`billing.pdf.${key}`, values));
  const money = (cents: number) => formatMoney(cents, statement.currency);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 56,
    compress: false,
    info: {
      Title: k('title', { number: statement.id }),
      Author: printable(statement.community.name),
      Subject: printable(statement.name),
      CreationDate: statement.purchasedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const amountWidth = 120;

  doc.font('Helvetica-Bold').fontSize(20).text(printable(statement.community.name), { width });
  doc.moveDown(0.2);
  doc.font('Helvetica').fontSize(14).text(k('title', { number: statement.id }), { width });
  doc.moveDown(1);

  doc.fontSize(10);
  const line = (label: string, value: string) => {
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true, width }).font('Helvetica').text(value);
  };
  line(k('member'), printable(statement.member.name));
  line(k('email'), printable(statement.member.email));
  line(k('number'), String(statement.id));
  line(k('date'), formatDate(statement.purchasedAt));
  line(k('purchase'), printable(statement.name));
  doc.moveDown(1);

  // The items: label on the left, amount on the right, a rule above the total.
  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(label, left, y, { width: width - amountWidth - 12 });
    const after = doc.y;
    doc.text(amount, left + width - amountWidth, y, { width: amountWidth, align: 'right' });
    doc.y = Math.max(after, doc.y);
    doc.x = left;
  };
  row(k('item'), k('amount'), true);
  doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).lineWidth(0.5).stroke();
  doc.moveDown(0.4);
  const items = statement.items.length ? statement.items : [{ label: statement.name, amountCents: statement.amountCents }];
  for (const item of items) row(printable(String(item.label)), money(Number(item.amountCents)));
  doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).lineWidth(0.5).stroke();
  doc.moveDown(0.4);
  row(k('total'), money(statement.amountCents), true);
  doc.moveDown(1);

  line(k('paymentMethod'), printable(statement.paymentMethod));
  doc.moveDown(2);
  doc.font('Helvetica').fontSize(9).fillColor('#444444').text(k('footer', { community: statement.community.name }), left, doc.y, { width });

  doc.end();
  return done;
}
