import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Community } from '#src/db/types.ts';

/**
 * Google Analytics and Tag Manager (spec section 3: the community's `googleAnalytics` and
 * `googleTagManager`), loaded only where staff set an id, only on that community's pages, and only
 * after the visitor agreed. The choice is a cookie (decision 0062): no statement on any page, it
 * works before signing in, and without JavaScript (a form POST). Without it nothing of Google's loads.
 */

export const CONSENT_COOKIE = 'analytics_consent';
export type ConsentChoice = 'granted' | 'denied';
/** A year, then the visitor is asked again. */
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 3600;

export type GoogleTags = { ga: string | null; gtm: string | null };

/** What a page does about Google: ask (a banner), load (the tags), or nothing; and the choice made. */
export type AnalyticsState = { offered: boolean; ask: boolean; load: GoogleTags | null; choice: ConsentChoice | null };

/** The hosts the CSP of a page with Google's tags allows, and only those (Google's own list for GA4 and GTM). */
export const GOOGLE_SOURCES = {
  'script-src': ['https://www.googletagmanager.com'],
  'connect-src': ['https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com'],
  'img-src': ['https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://www.googletagmanager.com'],
} as const;

const GA = /^(G-[A-Z0-9]{4,20}|UA-\d{4,12}-\d{1,4})$/;
const GTM = /^GTM-[A-Z0-9]{4,12}$/;

/** The community's ids, when they are ids (the sites form checks them; checked again before they reach a script). */
export function googleTagsOf(community: Pick<Community, 'google_analytics_id' | 'google_tag_manager_id'>): GoogleTags | null {
  const ga = community.google_analytics_id && GA.test(community.google_analytics_id) ? community.google_analytics_id : null;
  const gtm = community.google_tag_manager_id && GTM.test(community.google_tag_manager_id) ? community.google_tag_manager_id : null;
  return ga || gtm ? { ga, gtm } : null;
}

export function consentOf(request: FastifyRequest): ConsentChoice | null {
  const value = request.cookies?.[CONSENT_COOKIE];
  return value === 'granted' || value === 'denied' ? value : null;
}

/** The page's state: nothing on the staff's pages; else ask, or load once agreed. */
export function analyticsState(request: FastifyRequest, inAdmin: boolean): AnalyticsState {
  const tags = inAdmin || !request.community ? null : googleTagsOf(request.community);
  if (!tags) return { offered: false, ask: false, load: null, choice: null };
  const choice = consentOf(request);
  return { offered: true, ask: choice === null, load: choice === 'granted' ? tags : null, choice };
}

export function setConsent(reply: FastifyReply, choice: ConsentChoice): void {
  const app = reply.server;
  reply.setCookie(CONSENT_COOKIE, choice, { path: `${app.config.basePath}/` || '/', maxAge: CONSENT_MAX_AGE_SECONDS, sameSite: 'lax', httpOnly: true, secure: app.config.isProduction });
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The tags' HTML for the page's head (the ids are checked above: letters, digits and dashes only). */
export function googleTagsHtml(tags: GoogleTags, nonce: string): string {
  const n = attr(nonce);
  let html = '';
  if (tags.ga) {
    html += `<script async nonce="${n}" src="https://www.googletagmanager.com/gtag/js?id=${tags.ga}"></script>`;
    html += `<script nonce="${n}">window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','${tags.ga}');</script>`;
  }
  if (tags.gtm) {
    // Google's snippet, handing the page's nonce to the script it adds.
    html +=
      `<script nonce="${n}">(function(w,d,i){w.dataLayer=w.dataLayer||[];w.dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});` +
      `var j=d.createElement('script');j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i;j.nonce='${n}';d.head.appendChild(j);})(window,document,'${tags.gtm}');</script>`;
  }
  return html;
}
