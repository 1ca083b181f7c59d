import { randomBytes } from 'node:crypto';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { renderUpload } from '#src/lib/images.ts';
import { avatarPath } from './queries.ts';
import { AVATAR_SIZES } from './types.ts';

/**
 * Avatars: an upload is checked by its bytes (never its name or declared type), cut to a centred
 * square and stored at every preset of spec section 9 as WebP, in the database, so that every app
 * node serves it without a shared disk.
 */

/** The largest upload taken, in bytes (the form says so). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** The most pixels sharp decodes, and the largest side: more is an image bomb, refused before decoding. */
export const AVATAR_MAX_PIXELS = 40_000_000;
export const AVATAR_MAX_SIDE = 8000;
export const AVATAR_FORMATS = ['jpeg', 'png', 'webp'] as const;
/** Every stored size, largest first (the largest is rendered once, the others resized from it). */
export const AVATAR_PIXELS: readonly number[] = [...new Set(Object.values(AVATAR_SIZES))].sort((a, b) => b - a);
const CONTENT_TYPE = 'image/webp';

const refuse = (key: string) => new AppError('BadRequest.Validation', { fields: { avatar: { code: 'BadRequest.Validation', key } } });

/** A new avatar key: 144 random bits, URL-safe. */
export const newAvatarKey = () => randomBytes(18).toString('base64url');

/**
 * Every preset of an image: size -> WebP bytes. Refused (BadRequest.Validation on the field `avatar`)
 * when the bytes are not a JPEG, PNG or WebP, too large, or too many pixels.
 */
export const renderAvatar = (bytes: Buffer): Promise<Map<number, Buffer>> =>
  renderUpload(bytes, { maxBytes: AVATAR_MAX_BYTES, maxPixels: AVATAR_MAX_PIXELS, maxSide: AVATAR_MAX_SIDE, formats: AVATAR_FORMATS }, (why) => refuse(`profile.avatar.errors.${why}`), renderSquares);

/** The presets of a sharp pipeline: a centred square at the largest size, the others resized from it. */
export async function renderSquares(image: Sharp, { effort = 4 }: { effort?: number } = {}): Promise<Map<number, Buffer>> {
  const [largest, ...rest] = AVATAR_PIXELS as [number, ...number[]];
  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await image.resize(largest, largest, { fit: 'cover', position: 'centre' }).flatten({ background: '#ffffff' }).raw().toBuffer({ resolveWithObject: true });
  } catch {
    // Bytes that pass the header check but do not decode (a truncated or corrupt file).
    throw refuse('profile.avatar.errors.type');
  }
  const raw = { width: base.info.width, height: base.info.height, channels: base.info.channels };
  const out = new Map<number, Buffer>();
  out.set(largest, await sharp(base.data, { raw }).webp({ quality: 82, effort }).toBuffer());
  await Promise.all(rest.map(async (size) => out.set(size, await sharp(base.data, { raw }).resize(size, size).webp({ quality: 82, effort }).toBuffer())));
  return out;
}

/**
 * Stores the presets under a new key as the member's avatar (memberships.avatar_key, and avatar_url
 * for what reads the address directly) and deletes the member's older avatars. Returns the key.
 * Runs in its own transaction, or in the caller's when handed one (the demo seed's generated faces).
 */
export async function storeAvatar(db: Db, community: Tenant, userId: number, images: Map<number, Buffer>): Promise<string> {
  const key = newAvatarKey();
  const write = async (trx: Db) => {
    await deleteInCommunity(trx, 'avatar_images', community).where('user_id', '=', userId).execute();
    await insertInCommunity(
      trx,
      'avatar_images',
      community,
      [...images].map(([size, bytes]) => ({ key, size, user_id: userId, content_type: CONTENT_TYPE, bytes })),
    ).execute();
    await updateInCommunity(trx, 'memberships', community).set({ avatar_key: key, avatar_url: avatarPath(key) }).where('user_id', '=', userId).execute();
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  return key;
}

/** Checks, renders and stores an upload: the member's new avatar key. */
export async function saveAvatar(db: Db, community: Tenant, userId: number, bytes: Buffer): Promise<string> {
  return storeAvatar(db, community, userId, await renderAvatar(bytes));
}

/** Removes the member's avatar: the initials show again. */
export async function removeAvatar(db: Db, community: Tenant, userId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await deleteInCommunity(trx, 'avatar_images', community).where('user_id', '=', userId).execute();
    await updateInCommunity(trx, 'memberships', community).set({ avatar_key: null, avatar_url: null }).where('user_id', '=', userId).execute();
  });
}

/** One stored size of an avatar of the community, or undefined. */
export async function readAvatar(db: Db, community: Tenant, key: string, size: number) {
  return selectInCommunity(db, 'avatar_images', community).select(['bytes', 'content_type']).where('key', '=', key).where('size', '=', size).executeTakeFirst();
}
