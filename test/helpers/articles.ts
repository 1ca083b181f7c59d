import { AppError } from '#src/core/errors.ts';

/** One paragraph of n distinct words (prefix0 prefix1 …), as the editor stores rich text. */
export const words = (n: number, prefix = 'word') => `<p>${Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ')}</p>`;

/** How a service call ended: 'ok', the AppError's code, or 'crash: …' for anything else. */
export const code = (p: Promise<unknown>) => p.then(() => 'ok', (e) => (e instanceof AppError ? String(e.code) : `crash: ${(e as Error).message}`));
