import { randomBytes } from 'node:crypto';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs } from '#src/db/tenancy.ts';
import { renderUpload, type ImageRefusal } from '#src/lib/images.ts';
import { bankIdOf, bankTransaction, ensureStaff, type BankDeps, type BankViewer } from './deps.ts';
import { entryValues, writeEntries } from './index-refresh.ts';
import type { BankAssetKind, BankAssetRow } from './types.ts';

/**
 * The staff's own assets: images and PDFs, checked by their bytes (never their name or declared type)
 * and stored in the database as the other uploads are (avatars, logos, group images), so every node
 * serves them. An image goes through the avatars' checks (src/lib/images.ts: header read first, a bomb
 * refused before decoding, decoded within limits) and is re-encoded in its own format by sharp, which
 * drops its metadata (a photo's location) and anything hidden after its pixels. A PDF is taken as it
 * is once it looks like one end to end, and refused when encrypted or carrying active content. Each
 * asset is an item of the library at once (its index entry is written with it).
 */

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const PDF_MAX_BYTES = 10 * 1024 * 1024;
/** What the upload route reads at most (the larger of the two; each kind's own limit is checked after sniffing). */
export const UPLOAD_MAX_BYTES = PDF_MAX_BYTES;
const IMAGE_LIMITS = { maxBytes: IMAGE_MAX_BYTES, maxPixels: 40_000_000, maxSide: 8000, formats: ['jpeg', 'png', 'webp'] } as const;
const TITLE_MAX = 200;

const CONTENT_TYPES: Record<string, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', pdf: 'application/pdf' };
const EXTENSIONS: Record<string, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', pdf: 'pdf' };

/** A refused upload, by the form's `file` field (or `title`). */
function refusal(field: 'file' | 'title', key: string, values?: Record<string, unknown>): AppError {
  return new AppError('ContentBank.Invalid', { fields: { [field]: { code: 'ContentBank.Invalid', key: `contentBank.errors.${key}`, values } } });
}

const IMAGE_KEYS: Record<ImageRefusal, string> = { missing: 'fileMissing', tooLarge: 'fileTooLarge', type: 'fileType', dimensions: 'imageDimensions' };

/** Whether the bytes begin as a PDF does: `%PDF-1.x` or `%PDF-2.0`. */
export const looksLikePdf = (bytes: Buffer) => /^%PDF-(1\.[0-7]|2\.0)\b/.test(bytes.subarray(0, 16).toString('latin1'));

/**
 * A PDF's checks, on its bytes: the header, a cross-reference and an end-of-file marker near the end
 * (a truncated or padded file is refused), no encryption (nobody could read it without its password,
 * nor could the bank search it), and no active content (JavaScript, launch actions, embedded files,
 * XFA forms), names read with their `#xx` escapes decoded. Objects inside compressed streams are not
 * read: a PDF is served as a download, never opened by the app (decision 0061).
 */
export function checkPdf(bytes: Buffer): void {
  if (bytes.length === 0) throw refusal('file', 'fileMissing');
  if (bytes.length > PDF_MAX_BYTES) throw refusal('file', 'fileTooLarge', { max: PDF_MAX_BYTES / 1024 / 1024 });
  if (!looksLikePdf(bytes)) throw refusal('file', 'fileType');
  const tail = bytes.subarray(Math.max(0, bytes.length - 1024)).toString('latin1');
  if (!/%%EOF\s*$/.test(tail) || !/startxref\s+\d+/.test(tail)) throw refusal('file', 'pdfBroken');
  const text = bytes.toString('latin1').replace(/#([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  if (/\/Encrypt\b/.test(text)) throw refusal('file', 'pdfEncrypted');
  if (/\/(JavaScript|JS|Launch|EmbeddedFiles?|RichMedia|XFA)\b/.test(text)) throw refusal('file', 'pdfActive');
}

/** An image upload re-encoded in its own format (within the avatars' limits), with its size. */
async function renderImage(bytes: Buffer): Promise<{ bytes: Buffer; format: string; width: number; height: number }> {
  return renderUpload(
    bytes,
    IMAGE_LIMITS,
    (why) => refusal('file', IMAGE_KEYS[why], { max: IMAGE_MAX_BYTES / 1024 / 1024 }),
    async (image) => {
      const { format } = await image.metadata();
      const out = format === 'png' ? image.png() : format === 'webp' ? image.webp({ quality: 90 }) : image.jpeg({ quality: 90 });
      const { data, info } = await out.toBuffer({ resolveWithObject: true });
      return { bytes: data, format: format ?? 'jpeg', width: info.width, height: info.height };
    },
  );
}

/** A title in lower-case letters, digits and dashes (at most 60 characters), for a file's name. */
export function slugOf(title: string): string {
  return (
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'file'
  );
}

/** A file name from the title, then the sniffed type's extension. */
export const fileNameOf = (title: string, format: string) => `${slugOf(title)}.${EXTENSIONS[format] ?? 'bin'}`;

/** Where members (and staff) open an asset: its key never changes, so it is cached for good. */
export const assetPath = (key: string, filename: string) => `/content-bank/assets/${key}/${filename}`;
export const itemPath = (kind: string, id: number) => `/admin/content-bank/items/${kind}/${id}`;

function titleOf(value: string): string {
  const title = value.replace(/\s+/g, ' ').trim();
  if (!title) throw refusal('title', 'titleRequired');
  if (title.length > TITLE_MAX) throw refusal('title', 'tooLong', { max: TITLE_MAX });
  if (hasForbiddenCharacters(title)) throw refusal('title', 'characters');
  return title;
}

/**
 * Checks and stores an upload: its kind from its bytes (a PDF by its header, anything else must be an
 * image sharp decodes), refusals by field. Returns the asset's kind and id (its item's key).
 */
export async function uploadAsset(deps: BankDeps, viewer: BankViewer, input: { title: string; bytes: Buffer | null | undefined }): Promise<{ kind: BankAssetKind; id: number }> {
  ensureStaff(viewer);
  const fields: FieldErrors = {};
  let title = '';
  try {
    title = titleOf(input.title);
  } catch (e) {
    Object.assign(fields, (e as AppError).fields);
  }
  const bytes = input.bytes ?? Buffer.alloc(0);
  let stored: { bytes: Buffer; format: string; width: number | null; height: number | null } | null = null;
  try {
    if (looksLikePdf(bytes)) {
      checkPdf(bytes);
      stored = { bytes, format: 'pdf', width: null, height: null };
    } else {
      stored = await renderImage(bytes);
    }
  } catch (e) {
    if (!(e instanceof AppError) || !e.fields) throw e;
    Object.assign(fields, e.fields);
  }
  if (Object.keys(fields).length || !stored) throw new AppError('ContentBank.Invalid', { fields });
  const kind: BankAssetKind = stored.format === 'pdf' ? 'pdf' : 'image';
  const file = stored;
  const filename = fileNameOf(title, file.format);
  const key = randomBytes(18).toString('base64url');
  const author = await selectInCommunityAs(deps.db, 'memberships', 'm', deps.community)
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.first_name', 'u.last_name'])
    .where('m.user_id', '=', viewer.userId)
    .executeTakeFirst();
  return bankTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const { id } = await insertInCommunity(trx, 'bank_assets', deps.community, {
      key,
      kind,
      title,
      filename,
      content_type: CONTENT_TYPES[file.format] ?? 'application/octet-stream',
      byte_size: file.bytes.length,
      width: file.width,
      height: file.height,
      bytes: file.bytes,
      created_by: viewer.userId,
      created_at: now,
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    const authorName = author ? `${author.first_name} ${author.last_name}`.trim() : '';
    await writeEntries(trx, deps.community, [
      entryValues(kind, { id, title, text: `${title} ${filename}`, html: '', authorId: viewer.userId, authorName, publishedAt: now, url: assetPath(key, filename), staffPath: itemPath(kind, id) }, now),
    ]);
    return { kind, id };
  });
}

/** Deletes an asset: its file, its entry, its tags, its places in collections and its usage. */
export async function deleteAsset(deps: BankDeps, viewer: BankViewer, assetId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = bankIdOf(assetId);
  await bankTransaction(deps.db, async (trx) => {
    const asset = await deleteInCommunity(trx, 'bank_assets', deps.community).where('id', '=', id).returning('kind').executeTakeFirst();
    if (!asset) throw new AppError('ContentBank.NotFound');
    for (const table of ['bank_entries', 'bank_item_tags', 'bank_collection_items', 'bank_usage'] as const) {
      await deleteInCommunity(trx, table, deps.community).where('kind', '=', asset.kind).where('item_id', '=', id).execute();
    }
  });
}

/** An asset's file for a signed-in member of its community, by its key; the name must be its own. */
export async function readAssetFile(deps: Pick<BankDeps, 'db' | 'community'>, key: string, filename: string): Promise<{ bytes: Buffer; contentType: string; filename: string; kind: BankAssetKind } | null> {
  if (!/^[A-Za-z0-9_-]{24}$/.test(key)) return null;
  const row = await selectInCommunity(deps.db, 'bank_assets', deps.community).select(['bytes', 'content_type', 'filename', 'kind']).where('key', '=', key).executeTakeFirst();
  if (!row || row.filename !== filename) return null;
  return { bytes: row.bytes, contentType: row.content_type, filename: row.filename, kind: row.kind };
}

const ASSETS_PAGE = 50;

/** The community's assets, newest first, 50 a page (`after`: the last id shown). */
export async function listAssets(deps: BankDeps, viewer: BankViewer, after: number | null = null): Promise<{ rows: BankAssetRow[]; next: number | null }> {
  ensureStaff(viewer);
  let q = selectInCommunity(deps.db, 'bank_assets', deps.community).select(['id', 'kind', 'title', 'filename', 'byte_size', 'created_at', 'key']);
  if (after !== null) q = q.where('id', '<', after);
  const rows = await q.orderBy('id', 'desc').limit(ASSETS_PAGE + 1).execute();
  const page = rows.slice(0, ASSETS_PAGE);
  return {
    rows: page.map((r) => ({ id: r.id, kind: r.kind, title: r.title, filename: r.filename, byteSize: r.byte_size, createdAt: r.created_at, fileUrl: assetPath(r.key, r.filename) })),
    next: rows.length > ASSETS_PAGE ? page.at(-1)!.id : null,
  };
}
