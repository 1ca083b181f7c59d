/**
 * The insights area's public face: what the platform's render plugin needs for the community's Google
 * tags (the consent state, the tags, their CSP sources), and the types its views read. Routes, GraphQL,
 * jobs, the demo seed and its errors are registered through register.ts, never imported from here.
 */
export { analyticsState, CONSENT_COOKIE, GOOGLE_SOURCES, googleTagsHtml } from './consent.ts';
export type { AnalyticsState, ConsentChoice, GoogleTags } from './consent.ts';
export type { ChartData, FunnelData, Granularity, InsightBrand, RangeForm, SeriesName, StaffHomeView } from './types.ts';
