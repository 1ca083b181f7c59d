/** The ads area's public face: the only module other areas and the app import from. */
export { adClientData, listActiveAds, pickAds } from './service.ts';
