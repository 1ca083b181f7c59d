import { randomBytes } from 'node:crypto';
import { AppError } from '#src/core/errors.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { renderUpload, type ImageRefusal } from '#src/lib/images.ts';
import { ensureStaff, feedIdOf, feedsTransaction, type FeedsDeps, type FeedsViewer } from './deps.ts';
import { logFeedChange } from './log.ts';

/**
 * An announcement's image, uploaded the way groups' images are (src/lib/images.ts renderUpload):
 * checked by its bytes (never its name or declared type), decoded within limits, fitted into a 640×360
 * box by sharp as WebP and stored in the database (every node serves it), at /feeds/images/{key}.webp
 * under a key that never changes. Logged.
 */

export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const LIMITS = { maxBytes: IMAGE_MAX_BYTES, maxPixels: 25_000_000, maxSide: 6000, formats: ['jpeg', 'png', 'webp'] };
const KEYS = { missing: 'imageMissing', tooLarge: 'imageTooLarge', type: 'imageType', dimensions: 'imageType' } as const;

const refused = (why: ImageRefusal) => new AppError('Feeds.Invalid', { fields: { image: { code: 'Feeds.Invalid', key: `feedsAdmin.errors.${KEYS[why]}`, values: { max: IMAGE_MAX_BYTES / 1024 / 1024 } } } });

const renderImage = (bytes: Buffer): Promise<Buffer> => renderUpload(bytes, LIMITS, refused, (image) => image.resize(640, 360, { fit: 'cover' }).webp({ quality: 80 }).toBuffer());

async function titleOf(deps: FeedsDeps, trx: FeedsDeps['db'], id: number): Promise<string> {
  const row = await selectInCommunityAs(trx, 'feed_announcements', 'a', deps.community).select('a.title').where('a.id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('Feeds.NotFound');
  return row.title;
}

/** Stores an uploaded image under a new key (the older one goes). */
export async function saveAnnouncementImage(deps: FeedsDeps, viewer: FeedsViewer, announcementId: unknown, bytes: Buffer): Promise<void> {
  ensureStaff(viewer);
  const id = feedIdOf(announcementId);
  await titleOf(deps, deps.db, id);
  const webp = await renderImage(bytes);
  const key = randomBytes(18).toString('base64url');
  await feedsTransaction(deps.db, async (trx) => {
    const title = await titleOf(deps, trx, id);
    await deleteInCommunity(trx, 'feed_images', deps.community).where('announcement_id', '=', id).execute();
    await insertInCommunity(trx, 'feed_images', deps.community, { key, announcement_id: id, content_type: 'image/webp', bytes: webp }).execute();
    const now = deps.clock.now();
    await updateInCommunity(trx, 'feed_announcements', deps.community).set({ image: `upload:${key}`, updated_at: now }).where('id', '=', id).execute();
    await logFeedChange(trx, deps.community, { subject: 'announcement', subjectId: id, title, action: 'image', actorId: viewer.userId, at: now });
  });
}

/** Takes the image off (nothing to do when there is none). */
export async function removeAnnouncementImage(deps: FeedsDeps, viewer: FeedsViewer, announcementId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = feedIdOf(announcementId);
  await feedsTransaction(deps.db, async (trx) => {
    const title = await titleOf(deps, trx, id);
    const gone = await updateInCommunity(trx, 'feed_announcements', deps.community).set({ image: null, updated_at: deps.clock.now() }).where('id', '=', id).where('image', 'is not', null).executeTakeFirst();
    if (!Number(gone.numUpdatedRows)) return;
    await deleteInCommunity(trx, 'feed_images', deps.community).where('announcement_id', '=', id).execute();
    await logFeedChange(trx, deps.community, { subject: 'announcement', subjectId: id, title, action: 'imageRemoved', actorId: viewer.userId, at: deps.clock.now() });
  });
}

/**
 * An uploaded image of an announcement of this community, or undefined: staff see every one, members
 * only those of a published announcement (a draft's image is not theirs to see). The same answer for
 * an unknown key and another community's.
 */
export async function readFeedImage(deps: Pick<FeedsDeps, 'db' | 'community'>, viewer: FeedsViewer, key: string): Promise<{ bytes: Buffer; content_type: string } | undefined> {
  let q = selectInCommunityAs(deps.db, 'feed_images', 'i', deps.community)
    .innerJoin('feed_announcements as a', (j) => j.onRef('a.id', '=', 'i.announcement_id').onRef('a.community_id', '=', 'i.community_id'))
    .select(['i.bytes', 'i.content_type'])
    .where('i.key', '=', key);
  if (!viewer.isStaff) q = q.where('a.published_at', 'is not', null);
  return q.executeTakeFirst();
}
