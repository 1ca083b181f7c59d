/** The ads area's public face: the only module other areas and the app import from. */
export { adClickPath, adClientData, adImageUrl, countImpressions, isLive, listLiveAds, pickAds } from './service.ts';
export type { PickedAds } from './service.ts';
export type { AdShape, AdStatus, StaffAd } from './types.ts';
