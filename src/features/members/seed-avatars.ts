import sharp from 'sharp';
import type { RawDb } from '#src/db/index.ts';
import { newAvatarKey, renderSquares } from './avatars.ts';
import { avatarPath } from './queries.ts';

/**
 * Demo avatars: the members of the demo communities who have no photo get their initials on a
 * colour, rendered once at the largest preset and resized to the others, stored like an upload.
 */

/** Colours dark enough for white initials (contrast 4.5:1 or more). */
const COLOURS = ['#1f4e79', '#7a3b69', '#2e6b3a', '#8a3324', '#4b4f9c', '#005f73', '#6b4e16', '#9b2242', '#3d5a80', '#5c3c92'];

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function initialsSvg(first: string, last: string, colour: string, size = 450): string {
  const initials = `${first.trim()[0] ?? ''}${last.trim()[0] ?? ''}`.toUpperCase() || '?';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">` +
    `<rect width="100" height="100" fill="${colour}"/>` +
    `<text x="50" y="50" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="40" font-weight="700" fill="#ffffff">${escapeXml(initials)}</text>` +
    `</svg>`
  );
}

/**
 * Gives every membership without an avatar one (in the seed's transaction, after the members are
 * inserted). `limit` caps how many, should the demo grow large.
 */
export async function seedAvatars(trx: RawDb, { limit }: { limit?: number } = {}): Promise<number> {
  let query = trx
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.id', 'memberships.community_id', 'memberships.user_id', 'users.first_name', 'users.last_name'])
    .where('memberships.avatar_key', 'is', null)
    .where('memberships.avatar_url', 'is', null)
    .orderBy('memberships.id');
  if (limit !== undefined) query = query.limit(limit);
  const members = await query.execute();
  // Rendered a few at a time (sharp works on its own threads), stored as each batch is ready.
  const BATCH = 8;
  for (let i = 0; i < members.length; i += BATCH) {
    const batch = members.slice(i, i + BATCH);
    const rendered = await Promise.all(
      batch.map(async (m) => ({
        member: m,
        key: newAvatarKey(),
        images: await renderSquares(sharp(Buffer.from(initialsSvg(m.first_name, m.last_name, COLOURS[m.user_id % COLOURS.length]!))), { effort: 0 }),
      })),
    );
    await trx
      .insertInto('avatar_images')
      .values(
        rendered.flatMap(({ member, key, images }) =>
          [...images].map(([size, bytes]) => ({ key, size, community_id: member.community_id, user_id: member.user_id, content_type: 'image/webp', bytes })),
        ),
      )
      .execute();
    for (const { member, key } of rendered) {
      await trx.updateTable('memberships').set({ avatar_key: key, avatar_url: avatarPath(key) }).where('id', '=', member.id).execute();
    }
  }
  return members.length;
}
