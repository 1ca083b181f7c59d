import { randomBytes } from 'node:crypto';
import { AppError } from '#src/core/errors.ts';
import { renderUpload, type ImageRefusal } from '#src/lib/images.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { ensureStaff, groupsTransaction, type GroupsDeps, type GroupsViewer } from './deps.ts';
import { logAction, maySee } from './queries.ts';
import { groupIdOf } from './staff.ts';

/**
 * A group's image, uploaded the way partner logos and avatars are: checked by its bytes (never its
 * name or declared type), decoded within limits, fitted into a 640×360 box by sharp as WebP and stored
 * in the database (every node serves it), at /groups/images/{key}.webp under a key that never changes.
 */

export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const LIMITS = { maxBytes: IMAGE_MAX_BYTES, maxPixels: 25_000_000, maxSide: 6000, formats: ['jpeg', 'png', 'webp'] };
const KEYS = { missing: 'imageMissing', tooLarge: 'imageTooLarge', type: 'imageType', dimensions: 'imageType' } as const;

const refused = (why: ImageRefusal) => new AppError('Groups.Invalid', { fields: { image: { code: 'Groups.Invalid', key: `groupsAdmin.errors.${KEYS[why]}`, values: { max: IMAGE_MAX_BYTES / 1024 / 1024 } } } });

/** The image as WebP, cropped to fill a 640×360 box (src/lib/images.ts checks it first). */
export const renderImage = (bytes: Buffer): Promise<Buffer> => renderUpload(bytes, LIMITS, refused, (image) => image.resize(640, 360, { fit: 'cover' }).webp({ quality: 80 }).toBuffer());

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

/**
 * An uploaded image of a group the viewer may see (queries.ts maySee: staff always), or undefined: the
 * same answer for an unknown key, another community's, and a group hidden from them.
 */
export async function readGroupImage(deps: Pick<GroupsDeps, 'db' | 'community'>, viewer: GroupsViewer, key: string): Promise<{ bytes: Buffer; content_type: string } | undefined> {
  const row = await selectInCommunityAs(deps.db, 'group_images', 'gi', deps.community)
    .innerJoin('groups as g', (j) => j.onRef('g.id', '=', 'gi.group_id').onRef('g.community_id', '=', 'gi.community_id'))
    .leftJoin('group_members as me', (j) => j.onRef('me.group_id', '=', 'g.id').onRef('me.community_id', '=', 'g.community_id').on('me.user_id', '=', viewer.userId))
    .select(['gi.bytes', 'gi.content_type', 'g.visibility', 'me.role'])
    .where('gi.key', '=', key)
    .executeTakeFirst();
  if (!row || !maySee(row.visibility, { staff: viewer.isStaff, role: row.role ?? null })) return undefined;
  return { bytes: row.bytes, content_type: row.content_type };
}
