import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { Translate } from '#src/core/i18n.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import { toCsv } from '#src/lib/csv.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import { formatDate } from '#shared/format.ts';
import { getCollection } from './collections.ts';
import { ensureStaff, type BankDeps, type BankViewer } from './deps.ts';
import { libraryFactsOf } from './index-refresh.ts';
import { slugOf } from './assets.ts';
import type { BankCollectionDetail, BankItem, BankKind } from './types.ts';

/**
 * A collection's exports (issue 29): a CSV of its items in order, and a zip of HTML files (an
 * index.html, one page per item with its body sanitised again as articles' rich text is, and the
 * assets' files beside them). The zip is streamed: fflate's streaming Zip writes each file as it is
 * added, the pages are made one by one, and each asset's bytes are read from the database only when
 * its turn comes, so an export holds at most one asset in memory whatever the collection's size.
 */

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** An address as a reader outside the app opens it: absolute. */
export const absoluteUrl = (url: string | null, publicUrl: string) => (url === null ? null : url.startsWith('/') ? `${publicUrl}${url}` : url);

/** A name for the export's file: the collection's name in letters, digits and dashes. */
export const exportName = (name: string, ext: string) => `collection-${slugOf(name)}.${ext}`;

/** The CSV of a collection: position, kind, title, author, date, its address, its staff page, its tags. */
export async function collectionCsv(deps: BankDeps, viewer: BankViewer, t: Translate, collectionId: unknown): Promise<{ filename: string; csv: string }> {
  const c = await getCollection(deps, viewer, collectionId);
  const present = c.entries.filter((e): e is typeof e & { item: BankItem } => e.item !== null);
  const csv = toCsv(
    ['position', 'kind', 'title', 'author', 'published', 'url', 'staffUrl', 'tags'].map((k) => t(`contentBank.csv.${k}`)),
    present.map((e, i) => [
      i + 1,
      t(`contentBank.kind.${e.kind}`),
      e.item.title,
      e.item.authorName ?? '',
      e.item.publishedAt.toISOString().slice(0, 10),
      absoluteUrl(e.item.url, deps.publicUrl),
      `${deps.publicUrl}${e.item.staffPath}`,
      e.item.tags.map((tag) => tag.name).join('; '),
    ]),
  );
  return { filename: exportName(c.name, 'csv'), csv };
}

type ZipPlan = { filename: string; collection: BankCollectionDetail; bodies: Map<string, string>; assets: Map<number, { file: string }> };

/** Checks the collection and gathers its items' bodies (one statement per kind); the zip's bytes come from `streamCollectionZip`. */
export async function planCollectionZip(deps: BankDeps, viewer: BankViewer, collectionId: unknown): Promise<ZipPlan> {
  ensureStaff(viewer);
  const collection = await getCollection(deps, viewer, collectionId);
  const present = collection.entries.filter((e) => e.item !== null);
  const byKind = new Map<BankKind, number[]>();
  for (const e of present) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e.id]);
  const bodies = new Map<string, string>();
  for (const [kind, ids] of byKind) {
    for (const f of await libraryFactsOf(deps.db, deps.community, kind, ids)) bodies.set(`${kind}:${f.id}`, f.html);
  }
  const assets = new Map<number, { file: string }>();
  const assetIds = present.filter((e) => e.kind === 'image' || e.kind === 'pdf').map((e) => e.id);
  if (assetIds.length) {
    const rows = await selectInCommunity(deps.db, 'bank_assets', deps.community).select(['id', 'filename']).where('id', 'in', assetIds).execute();
    for (const r of rows) assets.set(r.id, { file: `assets/${r.id}-${r.filename}` });
  }
  return { filename: exportName(collection.name, 'zip'), collection, bodies, assets };
}

const page = (lang: string, title: string, body: string) =>
  `<!doctype html>\n<html lang="${lang}">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'unsafe-inline'">\n` +
  `<title>${escapeHtml(title)}</title>\n<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}img{max-width:100%;height:auto}.meta{color:#555}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;

/** The file name of an item's page in the zip: its place, then its title in letters. */
const pageName = (position: number, title: string) => `items/${String(position).padStart(3, '0')}-${slugOf(title)}.html`;

/**
 * The zip's bytes, chunk by chunk (a Readable.from() of it backs the response). Each item's page
 * carries its title, kind, author, date and address as text, and its body through the rich-text
 * sanitiser (no script, no style, no event handler, links http(s) and mailto only).
 */
export async function* streamCollectionZip(deps: BankDeps, t: Translate, plan: ZipPlan): AsyncGenerator<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let failed: Error | null = null;
  let finished = false;
  const zip = new Zip((err, data, final) => {
    if (err) failed = err;
    else chunks.push(data);
    if (final) finished = true;
  });
  const mtime = deps.clock.now();
  const encoder = new TextEncoder();
  const addText = (name: string, text: string) => {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = mtime;
    zip.add(file);
    file.push(encoder.encode(text), true);
  };
  const drain = function* () {
    if (failed) throw failed;
    while (chunks.length) yield chunks.shift()!;
  };

  const present = plan.collection.entries.filter((e): e is typeof e & { item: BankItem } => e.item !== null);
  const lang = 'en';
  const links: string[] = [];
  for (const [i, e] of present.entries()) {
    const name = pageName(i + 1, e.item.title);
    links.push(
      `<li><a href="${escapeHtml(name)}">${escapeHtml(e.item.title)}</a> <span class="meta">(${escapeHtml(t(`contentBank.kind.${e.kind}`))}${e.item.authorName ? `, ${escapeHtml(e.item.authorName)}` : ''}, ${escapeHtml(formatDate(e.item.publishedAt))})</span></li>`,
    );
    const url = absoluteUrl(e.item.url, deps.publicUrl);
    const asset = plan.assets.get(e.id);
    const isAsset = e.kind === 'image' || e.kind === 'pdf';
    const media = isAsset && asset
      ? e.kind === 'image'
        ? `<p><img src="../${escapeHtml(asset.file)}" alt="${escapeHtml(e.item.title)}"></p>`
        : `<p><a href="../${escapeHtml(asset.file)}">${escapeHtml(t('contentBank.export.openFile'))}</a></p>`
      : '';
    const body = isAsset ? '' : cleanRichText(plan.bodies.get(`${e.kind}:${e.id}`) ?? '');
    addText(
      name,
      page(
        lang,
        e.item.title,
        `<p><a href="../index.html">${escapeHtml(plan.collection.name)}</a></p>\n<h1>${escapeHtml(e.item.title)}</h1>\n` +
          `<p class="meta">${escapeHtml(t(`contentBank.kind.${e.kind}`))}${e.item.authorName ? ` · ${escapeHtml(e.item.authorName)}` : ''} · ${escapeHtml(formatDate(e.item.publishedAt))}</p>\n` +
          (url && /^https?:\/\//.test(url) && !isAsset ? `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>\n` : '') +
          `${media}\n<div class="body">${body}</div>`,
      ),
    );
    yield* drain();
    if (isAsset && asset) {
      // One asset's bytes at a time, read when their turn comes (stored as they are served: no deflate again).
      const row = await selectInCommunity(deps.db, 'bank_assets', deps.community).select('bytes').where('id', '=', e.id).executeTakeFirst();
      if (row) {
        const file = new ZipPassThrough(asset.file);
        file.mtime = mtime;
        zip.add(file);
        file.push(new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength), true);
        yield* drain();
      }
    }
  }
  const description = plan.collection.description ? `<p>${escapeHtml(plan.collection.description)}</p>\n` : '';
  addText('index.html', page(lang, plan.collection.name, `<h1>${escapeHtml(plan.collection.name)}</h1>\n${description}<ol>\n${links.join('\n')}\n</ol>`));
  zip.end();
  yield* drain();
  if (!finished) throw new Error('the zip did not finish');
}
