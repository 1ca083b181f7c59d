/** Types the ads area's views see (views import types only). */

export type AdShape = 'MASTHEAD' | 'MEDIUM_SQUARE';

/** The form as typed: every field a string, so that a refused form comes back as it was. */
export type AdDraft = { shape: string; link: string; altText: string; startsAt: string; endsAt: string; isActive: boolean };

/** Live: shown now; scheduled: active, not started; ended: active, past its end; inactive: switched off. */
export type AdStatus = 'live' | 'scheduled' | 'ended' | 'inactive';

export type StaffAd = {
  id: number;
  shape: AdShape;
  /** As stored: an app path (`/ads/images/…`) or a static asset (`img/ads/…`). */
  imageUrl: string;
  link: string;
  altText: string;
  startsAt: Date | null;
  endsAt: Date | null;
  isActive: boolean;
  status: AdStatus;
  impressions: number;
  clicks: number;
};

export type StaffAdDay = { day: string; impressions: number; clicks: number };

/** The sizes of spec section 9, for the form's hints. */
export type AdSizes = Record<AdShape, { width: number; height: number }>;
