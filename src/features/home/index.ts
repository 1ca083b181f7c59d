/** The home area's public face: the only module other areas and views import from. */
export type { HomeArticle, HomeMember, HomePost, NewsTile, OpenItem, WhatsNew } from './types.ts';
