/** The home area's public face: the only module other areas and views import from. */
export type { HomeArticle, HomeMember, HomePost, NewsCounts, OpenItem, WhatsNew } from './types.ts';
