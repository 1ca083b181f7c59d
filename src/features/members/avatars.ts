import { randomBytes } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { AppError } from '#src/core/errors.ts';
import { ConcurrencyGate } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
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
export async function renderAvatar(bytes: Buffer): Promise<Map<number, Buffer>> {
  if (bytes.length === 0) throw refuse('profile.avatar.errors.missing');
  if (bytes.length > AVATAR_MAX_BYTES) throw refuse('profile.avatar.errors.tooLarge');
  let meta: Metadata;
  try {
    // The header alone: nothing is decoded yet, so a declared 20000x20000 costs nothing here.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse('profile.avatar.errors.type');
  }
  if (!meta.format || !(AVATAR_FORMATS as readonly string[]).includes(meta.format)) throw refuse('profile.avatar.errors.type');
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !height) throw refuse('profile.avatar.errors.type');
  if (width > AVATAR_MAX_SIDE || height > AVATAR_MAX_SIDE || width * height > AVATAR_MAX_PIXELS) throw refuse('profile.avatar.errors.dimensions');
  return avatarRendering.run(() => renderSquares(sharp(bytes, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'error' }).rotate()));
}

/**
 * Uploads rendered at once per process: a large photo costs a core for a fraction of a second, so
 * a burst of uploads waits its turn (a few queued, then a 429) instead of taking every core from the
 * pages. The upload route is also rate-limited per address.
 */
const avatarRendering = new ConcurrencyGate(1, 8, () => new AppError('Busy.Uploads'));

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
 */
export async function storeAvatar(db: Db, community: Tenant, userId: number, images: Map<number, Buffer>): Promise<string> {
  const key = newAvatarKey();
  await db.transaction().execute(async (trx) => {
    await deleteInCommunity(trx, 'avatar_images', community).where('user_id', '=', userId).execute();
    await insertInCommunity(
      trx,
      'avatar_images',
      community,
      [...images].map(([size, bytes]) => ({ key, size, user_id: userId, content_type: CONTENT_TYPE, bytes })),
    ).execute();
    await updateInCommunity(trx, 'memberships', community).set({ avatar_key: key, avatar_url: avatarPath(key) }).where('user_id', '=', userId).execute();
  });
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
