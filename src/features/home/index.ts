/** The home area's public face: the only module other areas and views import from. */
export type { HomeArticle, HomeMember, HomePost, OpenItem, WhatsNew } from './types.ts';
