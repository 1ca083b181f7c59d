/**
 * A stored avatar's address at another preset: the stored address is the 200 px default
 * (`/avatars/{key}/200.webp`); other addresses (an outside URL) are returned as they are.
 */
export const avatarAt = (url: string, size: number) => url.replace(/^(\/avatars\/[^/]+\/)\d+(\.webp)$/, `$1${size}$2`);

/** The initials of a name (its first two words), drawn when a member has no photo. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .map((p) => p[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}
