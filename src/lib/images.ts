import sharp, { type Metadata, type Sharp } from 'sharp';
import { AppError, isAppError } from '#src/core/errors.ts';
import { ConcurrencyGate } from '#src/core/passwords.ts';

/**
 * An uploaded image (an avatar, a partner's logo, a group's image), checked by its bytes, never its
 * name or declared type: empty or too large is refused at once; the header alone is read (nothing
 * decoded yet, so a declared 20000×20000 costs nothing) for the format and the size; an image bomb
 * (too many pixels, too long a side) is refused before decoding; then it is decoded within the
 * limits, turned upright, and handed to the area's own rendering (its box, its WebP). A file sharp
 * cannot decode is refused as not an image, never a 500.
 */

export type ImageLimits = { maxBytes: number; maxPixels: number; maxSide: number; formats: readonly string[] };

/** Why an upload was refused: nothing sent, too many bytes, not an image we take, or too many pixels. */
export type ImageRefusal = 'missing' | 'tooLarge' | 'type' | 'dimensions';

/**
 * Uploads rendered one at a time per process: a large photo costs a core for a fraction of a second,
 * so a burst waits its turn (a few queued, then a 429) instead of taking every core from the pages.
 * The upload routes are also rate-limited per address.
 */
const rendering = new ConcurrencyGate(1, 8, () => new AppError('Busy.Uploads'));

export async function renderUpload<T>(bytes: Buffer, limits: ImageLimits, refuse: (why: ImageRefusal) => AppError, render: (image: Sharp) => Promise<T>): Promise<T> {
  if (bytes.length === 0) throw refuse('missing');
  if (bytes.length > limits.maxBytes) throw refuse('tooLarge');
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse('type');
  }
  if (!meta.format || !limits.formats.includes(meta.format)) throw refuse('type');
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !height) throw refuse('type');
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) throw refuse('dimensions');
  return rendering.run(async () => {
    try {
      return await render(sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate());
    } catch (err) {
      if (isAppError(err)) throw err;
      throw refuse('type');
    }
  });
}
