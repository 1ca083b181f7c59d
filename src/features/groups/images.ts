import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { AppError } from '#src/core/errors.ts';
import { ConcurrencyGate } from '#src/core/passwords.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { ensureStaff, groupsTransaction, type GroupsDeps, type GroupsViewer } from './deps.ts';
import { logAction } from './queries.ts';
import { groupIdOf } from './staff.ts';

/**
 * A group's image, uploaded the way partner logos and avatars are: checked by its bytes (never its
 * name or declared type), decoded within limits, fitted into a 640×360 box by sharp as WebP and stored
 * in the database (every node serves it), at /groups/images/{key}.webp under a key that never changes.
 */

export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const MAX_PIXELS = 25_000_000;
const MAX_SIDE = 6000;
const FORMATS = ['jpeg', 'png', 'webp'];

const refused = (key: string) => new AppError('Groups.Invalid', { fields: { image: { code: 'Groups.Invalid', key: `groupsAdmin.errors.${key}`, values: { max: IMAGE_MAX_BYTES / 1024 / 1024 } } } });
const rendering = new ConcurrencyGate(1, 8, () => new AppError('Busy.Uploads'));

export async function renderImage(bytes: Buffer): Promise<Buffer> {
  if (bytes.length === 0) throw refused('imageMissing');
  if (bytes.length > IMAGE_MAX_BYTES) throw refused('imageTooLarge');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refused('imageType');
  }
  if (!meta.format || !FORMATS.includes(meta.format)) throw refused('imageType');
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !height || width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) throw refused('imageType');
  return rendering.run(async () => {
    try {
      return await sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate().resize(640, 360, { fit: 'cover' }).webp({ quality: 80 }).toBuffer();
    } catch {
      throw refused('imageType');
    }
  });
}

/** Stores an uploaded image under a new key, drops the group's older ones; logged. */
export async function saveGroupImage(deps: GroupsDeps, viewer: GroupsViewer, groupId: unknown, bytes: Buffer): Promise<void> {
  ensureStaff(viewer);
  const id = groupIdOf(groupId);
  const exists = await selectInCommunity(deps.db, 'groups', deps.community).select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw new AppError('Groups.NotFound');
  const webp = await renderImage(bytes);
  const key = randomBytes(18).toString('base64url');
  await groupsTransaction(deps.db, async (trx) => {
    await deleteInCommunity(trx, 'group_images', deps.community).where('group_id', '=', id).execute();
    await insertInCommunity(trx, 'group_images', deps.community, { key, group_id: id, content_type: 'image/webp', bytes: webp }).execute();
    const now = deps.clock.now();
    await updateInCommunity(trx, 'groups', deps.community).set({ image: `upload:${key}`, updated_at: now }).where('id', '=', id).execute();
    await logAction(trx, deps.community, { groupId: id, actorId: viewer.userId, action: 'image', at: now });
  });
}

/** An uploaded image of the community, or undefined. */
export async function readGroupImage(deps: Pick<GroupsDeps, 'db' | 'community'>, key: string) {
  return selectInCommunity(deps.db, 'group_images', deps.community).select(['bytes', 'content_type']).where('key', '=', key).executeTakeFirst();
}
