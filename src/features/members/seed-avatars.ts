import { createAvatar } from '@dicebear/core';
import * as notionists from '@dicebear/notionists';
import sharp from 'sharp';
import type { RawDb } from '#src/db/index.ts';
import { AVATAR_PIXELS, renderSquares, storeAvatar } from './avatars.ts';

/**
 * Demo faces (issue 30, decision 0064): the members of the demo communities get a portrait-style
 * drawing (DiceBear's Notionists: MIT code, CC0 design) generated here, offline, from a seed that is
 * theirs for good (their email, a constant of the seed files), so the same member gets the same face
 * on every machine and every run. Each is rasterised by sharp at the largest preset and stored by the
 * avatar path's own `storeAvatar`, exactly as an upload is: same presets, same WebP, same address,
 * same serving and caching. A few members keep no face, so the initials (the fallback of every
 * member without one) still show in the demo. Only the demo seed calls this: a deployment without
 * demo data has none of it.
 */

/** Soft backgrounds, light enough for the drawing's dark lines (hex without '#', as DiceBear takes them). */
const BACKGROUNDS = ['dbe9f6', 'f6e3d4', 'e2f0e2', 'efe2f3', 'f8efcf', 'd9efed', 'f4dfe3', 'e6e4f4'];

/** The demo members who keep their initials (the fallback stays visible: in the directory, the forum, a profile). */
export const WITHOUT_FACE: ReadonlySet<string> = new Set([
  'owen.gallagher@summit-demo.example.com',
  'hannah.feldman@summit-demo.example.com',
  'quinn.harper@summit-demo.example.com',
  'noah.fischer@harbor-demo.example.com',
]);

/** How many faces are rasterised at once (sharp renders on its own threads; the machine may have two cores). */
const CONCURRENCY = 4;

/**
 * The face of a seed, as SVG, at the largest preset: head and shoulders, drawn a third larger and a
 * little lower so the face fills a 24 to 40 px circle; no waving hands or body icons.
 */
export function faceSvg(seed: string): string {
  return createAvatar(notionists, {
    seed,
    size: AVATAR_PIXELS[0]!,
    backgroundColor: BACKGROUNDS,
    backgroundType: ['solid'],
    gestureProbability: 0,
    bodyIconProbability: 0,
    scale: 130,
    translateY: 10,
  }).toString();
}

/** The face of a seed at every avatar preset (size -> WebP bytes), as the avatar path stores an upload. */
export function renderFace(seed: string): Promise<Map<number, Buffer>> {
  return renderSquares(sharp(Buffer.from(faceSvg(seed))), { effort: 0 });
}

/**
 * Gives every membership without an avatar a generated face, except the few of WITHOUT_FACE (in the
 * seed's transaction, after the members are inserted). A member of several communities gets the same
 * face in each. `limit` caps how many, should the demo grow large. Returns how many were stored.
 */
export async function seedAvatars(trx: RawDb, { limit }: { limit?: number } = {}): Promise<number> {
  let query = trx
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.community_id', 'memberships.user_id', 'users.email'])
    .where('memberships.avatar_key', 'is', null)
    .where('memberships.avatar_url', 'is', null)
    .orderBy('memberships.id');
  if (limit !== undefined) query = query.limit(limit);
  const members = (await query.execute()).filter((m) => !WITHOUT_FACE.has(m.email.toLowerCase()));
  // One rendering per person (the admin belongs to every community), at most CONCURRENCY ahead of
  // the member being stored: sharp renders on its threads while the seed's transaction writes.
  const faces = new Map<string, Promise<Map<number, Buffer>>>();
  const rendering: Promise<Map<number, Buffer>>[] = [];
  const start = (i: number) => {
    // Called in order (0, 1, ... then one more per member stored): the next one not yet started.
    if (i >= members.length || i < rendering.length) return;
    const seed = members[i]!.email.toLowerCase();
    if (!faces.has(seed)) {
      const face = renderFace(seed);
      // Awaited in order below; marked handled so a later one failing first is not an unhandled rejection.
      face.catch(() => {});
      faces.set(seed, face);
    }
    rendering[i] = faces.get(seed)!;
  };
  for (let i = 0; i < CONCURRENCY; i++) start(i);
  for (const [i, m] of members.entries()) {
    const images = await rendering[i]!;
    start(i + CONCURRENCY);
    await storeAvatar(trx, { id: m.community_id }, m.user_id, images);
  }
  return members.length;
}
