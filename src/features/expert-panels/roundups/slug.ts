/**
 * A roundup's live address from its title: lower case ASCII letters and digits joined by single
 * hyphens (accents dropped), at most SLUG_MAX characters cut at a hyphen, 'roundup' when nothing of
 * the title survives. Uniqueness in the community (-2, -3…) is the service's business.
 */
export const SLUG_MAX = 80;

export function slugify(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!words) return 'roundup';
  if (words.length <= SLUG_MAX) return words;
  const cut = words.slice(0, SLUG_MAX);
  const hyphen = cut.lastIndexOf('-');
  return (hyphen > SLUG_MAX / 2 ? cut.slice(0, hyphen) : cut).replace(/-+$/, '');
}
