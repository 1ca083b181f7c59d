import { createHash, randomBytes } from 'node:crypto';

/** A random identifier with 256 bits of entropy, URL-safe. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
