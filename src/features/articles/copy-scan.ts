/**
 * Temporary: the old path of the copy scan, kept only for src/app.ts and src/plugins/types.ts
 * (which the lead rewires to the face, #src/features/articles/index.ts) and expert panels' review
 * until it imports the face. Delete once nothing imports it. The scan itself lives in copy-scan/.
 */
export { HostedCopyScanner } from './copy-scan/hosted.ts';
export { LocalCopyScanner } from './copy-scan/local.ts';
export type { CopyScanner } from './copy-scan/scanner.ts';
