import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { RawDb } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { DemoContext } from '#src/features/area.ts';
import { assetPath, fileNameOf, itemPath } from './assets.ts';
import { consumeMarks, entryValues, writeEntries } from './index-refresh.ts';
import type { BankKey, BankKind } from './types.ts';

/**
 * The demo's content bank: in Summit its library indexed (the published article, the pricing
 * roundup, the accepted answers), two assets made here (a small PNG banner and a one-page PDF, a few
 * milliseconds each), the tags Leadership, Finance and Climate on them, and the collection "Best of
 * 2026" holding six of them in order. In Harbor, a tag. Quick: no image is decoded, no file read.
 */

/** A one-page PDF with a title and a line of text, written by hand (offsets counted), checked as any upload is. */
export function demoPdf(title: string, line: string): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 20 Tf 72 720 Td (${esc(title)}) Tj ET\nBT /F1 12 Tf 72 690 Td (${esc(line)}) Tj ET\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}endstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A small banner: a diagonal wash between two colours, drawn pixel by pixel and encoded as PNG. */
export async function demoPng(width = 320, height = 180, from = [15, 76, 129], to = [46, 160, 110]): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const k = (x / width + y / height) / 2;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) raw[i + c] = Math.round(from[c]! + (to[c]! - from[c]!) * k);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 6 }).toBuffer();
}

async function addAsset(trx: RawDb, community: Tenant, adminId: number, a: { kind: 'image' | 'pdf'; title: string; bytes: Buffer; width: number | null; height: number | null; at: Date; format: string }): Promise<BankKey> {
  const filename = fileNameOf(a.title, a.format);
  const key = randomBytes(18).toString('base64url');
  const { id } = await insertInCommunity(trx, 'bank_assets', community, {
    key,
    kind: a.kind,
    title: a.title,
    filename,
    content_type: a.kind === 'pdf' ? 'application/pdf' : 'image/png',
    byte_size: a.bytes.length,
    width: a.width,
    height: a.height,
    bytes: a.bytes,
    created_by: adminId,
    created_at: a.at,
  })
    .returning('id')
    .executeTakeFirstOrThrow();
  const admin = await trx.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', adminId).executeTakeFirst();
  const authorName = admin ? `${admin.first_name} ${admin.last_name}`.trim() : '';
  await writeEntries(trx, community, [entryValues(a.kind, { id, title: a.title, text: `${a.title} ${filename}`, html: '', authorId: adminId, authorName, publishedAt: a.at, url: assetPath(key, filename), staffPath: itemPath(a.kind, id) }, a.at)]);
  return { kind: a.kind, id };
}

export async function seedContentBank(trx: RawDb, demo: DemoContext): Promise<void> {
  const now = new Date();
  for (const [code, communityId] of Object.entries(demo.byCode)) {
    const community = { id: communityId };
    // What the other areas' demos published is indexed now (the marks their rows left), so the first page is ready.
    while ((await consumeMarks(trx, community, now)) > 0);
    if (code === 'harbor') {
      await insertInCommunity(trx, 'bank_tags', community, { name: 'Operations', created_by: demo.adminId, created_at: now }).execute();
    }
    if (code !== 'summit') continue;

    const day = (n: number) => new Date(now.getTime() - n * 86_400_000);
    const png = await demoPng();
    const banner = await addAsset(trx, community, demo.adminId, { kind: 'image', title: 'Summit 2026 climate pledge banner', bytes: png, width: 320, height: 180, at: day(20), format: 'png' });
    const pdf = await addAsset(trx, community, demo.adminId, {
      kind: 'pdf',
      title: 'Pricing playbook: board pack',
      bytes: demoPdf('Pricing playbook', 'What three members changed in their pricing, and what it did to revenue.'),
      width: null,
      height: null,
      at: day(12),
      format: 'pdf',
    });

    const entries = await selectInCommunity(trx, 'bank_entries', community).select(['kind', 'item_id', 'title']).orderBy('published_at', 'desc').orderBy('id', 'desc').execute();
    const of = (kind: BankKind) => entries.filter((e) => e.kind === kind).map((e) => ({ kind, id: e.item_id }));
    const article = of('article')[0];
    const roundup = of('roundup')[0];
    const answers = of('answer');

    const tagIds: Record<string, number> = {};
    for (const name of ['Leadership', 'Finance', 'Climate']) {
      const { id } = await insertInCommunity(trx, 'bank_tags', community, { name, created_by: demo.adminId, created_at: day(30) }).returning('id').executeTakeFirstOrThrow();
      tagIds[name] = id;
    }
    const tagged: [string, BankKey | undefined][] = [
      ['Leadership', article],
      ['Leadership', answers[0]],
      ['Finance', roundup],
      ['Finance', answers[1]],
      ['Finance', pdf],
      ['Climate', banner],
      ['Climate', answers[2]],
    ];
    const tagRows = tagged.filter((x): x is [string, BankKey] => Boolean(x[1])).map(([name, k]) => ({ tag_id: tagIds[name]!, kind: k.kind, item_id: k.id, tagged_by: demo.adminId, created_at: day(10) }));
    if (tagRows.length) await insertInCommunity(trx, 'bank_item_tags', community, tagRows).execute();

    const { id: collectionId } = await insertInCommunity(trx, 'bank_collections', community, {
      name: 'Best of 2026',
      description: 'Our strongest pieces of the year, in the order of the year-end newsletter.',
      created_by: demo.adminId,
      created_at: day(9),
      updated_at: day(2),
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    const picks = [roundup, article, answers[0], answers[1], banner, pdf].filter((k): k is BankKey => Boolean(k));
    await insertInCommunity(
      trx,
      'bank_collection_items',
      community,
      picks.map((k, i) => ({ collection_id: collectionId, kind: k.kind, item_id: k.id, position: i + 1, added_by: demo.adminId, added_at: day(9 - i) })),
    ).execute();
  }
}
