import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { fieldsError, type FieldErrors } from '#src/core/errors.ts';
import { emailField, hasForbiddenCharacters } from '#src/core/fields.ts';
import type { Community, NavLink } from '#src/db/types.ts';
import { STATIC_DIR } from '#src/lib/assets.ts';

/**
 * A site's form (spec section 3, "Community (client data)"): its fields, the form of a new or stored
 * site, the form from a posted body, and its checks (validateSite: the columns to store, or a
 * BadRequest.Validation naming each refused field); which fields an update changed.
 */

/** The form's text fields, in the order of the form. */
export const SITE_TEXT_FIELDS = [
  'code',
  'name',
  'appName',
  'familiarName',
  'hosts',
  'colorPrimary',
  'colorAccent',
  'icon',
  'conciergeEmail',
  'conciergePhone',
  'execLink',
  'copyrightHolder',
  'linkTerms',
  'linkPrivacy',
  'linkMembershipInfo',
  'googleAnalytics',
  'googleTagManager',
  'authSlug',
  'authBackgroundImage',
  'authPlayStoreLink',
  'authAppStoreLink',
  'authLogo',
  'authTextColor',
] as const;
export type SiteTextField = (typeof SITE_TEXT_FIELDS)[number];

/** A site as the form holds it: every field as typed (nothing typed is lost when a field is refused). */
export type SiteForm = Record<SiteTextField, string> & { forumEnabled: boolean; nav: NavLink[] };

/** The most navMore rows and host names a site has. */
export const NAV_MAX = 12;
export const HOSTS_MAX = 20;
/** Blank navMore rows the form offers below the filled ones, so rows can be added without JavaScript. */
export const NAV_BLANK_ROWS = 3;

const TEXT_MAX = 200;
const URL_MAX = 2000;

/** Form field -> communities column, for the plain text columns. */
export const COLUMNS = {
  name: 'name',
  appName: 'app_name',
  familiarName: 'familiar_name',
  colorPrimary: 'color_primary',
  colorAccent: 'color_accent',
  icon: 'icon',
  conciergeEmail: 'concierge_email',
  conciergePhone: 'concierge_phone',
  execLink: 'exec_link',
  copyrightHolder: 'copyright_holder',
  linkTerms: 'link_terms',
  linkPrivacy: 'link_privacy',
  linkMembershipInfo: 'link_membership_info',
  googleAnalytics: 'google_analytics_id',
  googleTagManager: 'google_tag_manager_id',
  authSlug: 'auth_slug',
  authBackgroundImage: 'auth_background_image',
  authPlayStoreLink: 'auth_play_store_link',
  authAppStoreLink: 'auth_app_store_link',
  authLogo: 'auth_logo',
  authTextColor: 'auth_text_color',
} as const satisfies Partial<Record<SiteTextField, keyof Community>>;
export type ColumnField = keyof typeof COLUMNS;
const REQUIRED: readonly ColumnField[] = ['name', 'appName', 'familiarName', 'conciergeEmail', 'conciergePhone', 'copyrightHolder', 'colorPrimary', 'colorAccent'];

/** The form of a new site: blank, with the platform's default colours. */
export function blankSiteForm(): SiteForm {
  const form = Object.fromEntries(SITE_TEXT_FIELDS.map((f) => [f, ''])) as Record<SiteTextField, string>;
  return { ...form, colorPrimary: '#1f4e79', colorAccent: '#a64b00', forumEnabled: false, nav: [] };
}

/** The form of an existing site. */
export function siteFormOf(c: Community, hosts: string[]): SiteForm {
  const form = blankSiteForm();
  form.code = c.code;
  form.hosts = hosts.join('\n');
  for (const [field, column] of Object.entries(COLUMNS) as [ColumnField, keyof Community][]) form[field] = (c[column] as string | null) ?? '';
  form.forumEnabled = c.forum_enabled;
  form.nav = (c.nav_more ?? []).map((n) => ({ label: n.label, link: n.link }));
  return form;
}

/** A form body (urlencoded or JSON; anything not a string is blank) as a SiteForm. */
export function siteFormFromBody(body: Record<string, unknown>): SiteForm {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const form = Object.fromEntries(SITE_TEXT_FIELDS.map((f) => [f, str(body[f])])) as Record<SiteTextField, string>;
  const nav: NavLink[] = [];
  for (let i = 0; i < NAV_MAX + NAV_BLANK_ROWS; i++) {
    const label = str(body[`nav.${i}.label`]);
    const link = str(body[`nav.${i}.link`]);
    if (label.trim() || link.trim()) nav.push({ label, link });
  }
  const forum = body.forumEnabled;
  return { ...form, forumEnabled: forum === true || forum === 'on' || forum === 'true', nav };
}

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** WCAG AA for normal text. */
export const CONTRAST_MIN = 4.5;

/** The contrast ratio of white text on this colour (1 to 21), rounded down to two decimals. */
export function contrastWithWhite(hex: string): number {
  return Math.floor((1.05 / (luminance(hex) + 0.05)) * 100) / 100;
}

const HTTP_URL = (v: string) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v) && v.length <= URL_MAX && ['http:', 'https:'].includes(new URL(v).protocol);
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const isHostName = (h: string) => h.length <= 253 && h.split('.').every((label) => HOST_LABEL.test(label));
const RESERVED_CODES: readonly string[] = ['new'];
export const CODE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const IMAGE_EXTENSIONS = /\.(svg|png|jpe?g|webp|gif|ico)$/i;

/** An image is a web address, or a file that exists under static/ (e.g. img/summit-logo.svg). */
function isImage(v: string): boolean {
  if (/^https?:\/\//i.test(v)) return HTTP_URL(v);
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(v) || v.includes('..') || !IMAGE_EXTENSIONS.test(v)) return false;
  const file = path.resolve(STATIC_DIR, v);
  return file.startsWith(`${STATIC_DIR}${path.sep}`) && existsSync(file) && statSync(file).isFile();
}

/** A navMore link: a web address, or a path of this app (starting with one slash). */
const isNavLink = (v: string) => HTTP_URL(v) || (/^\/(?!\/)[^\s\\]*$/.test(v) && v.length <= URL_MAX);

export type ValidSite = {
  code: string;
  columns: Omit<Community, 'id' | 'code' | 'created_at' | 'updated_at' | 'article_terms' | 'article_guidelines' | 'article_application_url' | 'nav_more' | 'forum_all_posts_wait' | 'syndication_feeds' | 'forum_reads_since'> & { nav_more: string };
  nav: NavLink[];
  hosts: string[];
};

export const invalid = (key: string, values?: Record<string, unknown>) => ({ code: 'BadRequest.Validation' as const, key, values });

/**
 * Checks a site form. Throws BadRequest.Validation naming each refused field (its message key next to
 * it in the form) or returns the columns to store. Hostile text (control characters, half characters,
 * huge values) is refused field by field like any other bad input: a 400, never a 500.
 */
export function validateSite(form: SiteForm): ValidSite {
  const fields: FieldErrors = {};
  const v = {} as Record<SiteTextField, string>;
  for (const f of SITE_TEXT_FIELDS) {
    const raw = form[f];
    if (hasForbiddenCharacters(raw, f === 'hosts')) fields[f] = { code: 150, key: 'errors.client.invalidCharacters' };
    else if (raw.length > (f === 'hosts' ? 5000 : URL_MAX)) fields[f] = invalid('sites.errors.tooLong');
    v[f] = raw.trim();
  }
  const ok = (f: SiteTextField) => !fields[f];

  if (ok('code') && !CODE_PATTERN.test(v.code)) fields.code = invalid('sites.errors.code');
  // /admin/sites/new is the creation form: no site may take that address.
  else if (ok('code') && RESERVED_CODES.includes(v.code)) fields.code = invalid('sites.errors.codeReserved');
  for (const f of REQUIRED) if (ok(f) && !v[f]) fields[f] = invalid('sites.errors.required');
  for (const f of ['name', 'appName', 'familiarName', 'copyrightHolder', 'authSlug'] as const) {
    if (ok(f) && v[f].length > TEXT_MAX) fields[f] = invalid('sites.errors.tooLong');
  }
  // The primary colour is the background of white text (header, buttons) and the colour of links on
  // white: below WCAG AA's 4.5:1 it is refused. The accent only marks borders (no text on it), so its
  // contrast is stated next to the field but not enforced (the platform's own default is 4.33:1).
  for (const f of ['colorPrimary', 'colorAccent'] as const) {
    if (!ok(f) || !v[f]) continue;
    if (!COLOR_PATTERN.test(v[f])) fields[f] = invalid('sites.errors.color');
    else if (f === 'colorPrimary' && contrastWithWhite(v[f]) < CONTRAST_MIN) fields[f] = invalid('sites.errors.contrast', { ratio: contrastWithWhite(v[f]).toFixed(2) });
    else v[f] = v[f].toLowerCase();
  }
  if (ok('authTextColor') && v.authTextColor) {
    if (!COLOR_PATTERN.test(v.authTextColor)) fields.authTextColor = invalid('sites.errors.color');
    else v.authTextColor = v.authTextColor.toLowerCase();
  }
  for (const f of ['icon', 'authLogo', 'authBackgroundImage'] as const) {
    if (ok(f) && v[f] && !isImage(v[f])) fields[f] = invalid('sites.errors.image');
  }
  for (const f of ['execLink', 'linkTerms', 'linkPrivacy', 'linkMembershipInfo', 'authPlayStoreLink', 'authAppStoreLink'] as const) {
    if (ok(f) && v[f] && !HTTP_URL(v[f])) fields[f] = { code: 100, key: 'sites.errors.url' };
  }
  if (ok('conciergeEmail') && v.conciergeEmail) {
    const parsed = emailField.safeParse(v.conciergeEmail);
    if (parsed.success) v.conciergeEmail = parsed.data;
    else fields.conciergeEmail = { code: 130, key: 'sites.errors.email' };
  }
  if (ok('conciergePhone') && v.conciergePhone && !parsePhoneNumberFromString(v.conciergePhone, 'US')?.isValid()) fields.conciergePhone = { code: 110, key: 'sites.errors.phone' };
  if (ok('googleAnalytics') && v.googleAnalytics) {
    v.googleAnalytics = v.googleAnalytics.toUpperCase();
    if (!/^(G-[A-Z0-9]{4,20}|UA-\d{4,12}-\d{1,4})$/.test(v.googleAnalytics)) fields.googleAnalytics = invalid('sites.errors.analytics');
  }
  if (ok('googleTagManager') && v.googleTagManager) {
    v.googleTagManager = v.googleTagManager.toUpperCase();
    if (!/^GTM-[A-Z0-9]{4,12}$/.test(v.googleTagManager)) fields.googleTagManager = invalid('sites.errors.tagManager');
  }
  if (ok('authSlug') && v.authSlug && !CODE_PATTERN.test(v.authSlug)) fields.authSlug = invalid('sites.errors.slug');

  const hosts: string[] = [];
  if (ok('hosts')) {
    const lines = v.hosts.split(/[\s,]+/).map((h) => h.trim().toLowerCase()).filter(Boolean);
    const bad = lines.filter((h) => !isHostName(h));
    if (bad.length) fields.hosts = invalid('sites.errors.hosts', { hosts: bad.slice(0, 3).join(', ') });
    else if (new Set(lines).size > HOSTS_MAX) fields.hosts = invalid('sites.errors.tooManyHosts', { max: HOSTS_MAX });
    else hosts.push(...new Set(lines));
  }

  const nav: NavLink[] = [];
  if (form.nav.length > NAV_MAX) fields.nav = invalid('sites.errors.tooManyNav', { max: NAV_MAX });
  form.nav.slice(0, NAV_MAX).forEach((row, i) => {
    const label = row.label.trim();
    const link = row.link.trim();
    if (hasForbiddenCharacters(row.label)) fields[`nav.${i}.label`] = { code: 150, key: 'errors.client.invalidCharacters' };
    else if (!label) fields[`nav.${i}.label`] = invalid('sites.errors.navLabel');
    else if (label.length > 60) fields[`nav.${i}.label`] = invalid('sites.errors.tooLong');
    if (hasForbiddenCharacters(row.link)) fields[`nav.${i}.link`] = { code: 150, key: 'errors.client.invalidCharacters' };
    else if (!isNavLink(link)) fields[`nav.${i}.link`] = invalid('sites.errors.navLink');
    nav.push({ label, link });
  });

  if (Object.keys(fields).length) throw fieldsError(fields, 'BadRequest.Validation');
  const orNull = (s: string) => s || null;
  return {
    code: v.code,
    columns: {
      name: v.name,
      app_name: v.appName,
      familiar_name: v.familiarName,
      icon: orNull(v.icon),
      nav_more: JSON.stringify(nav),
      forum_enabled: form.forumEnabled,
      concierge_email: v.conciergeEmail,
      concierge_phone: v.conciergePhone,
      exec_link: orNull(v.execLink),
      copyright_holder: v.copyrightHolder,
      link_terms: orNull(v.linkTerms),
      link_privacy: orNull(v.linkPrivacy),
      link_membership_info: orNull(v.linkMembershipInfo),
      google_analytics_id: orNull(v.googleAnalytics),
      google_tag_manager_id: orNull(v.googleTagManager),
      auth_slug: orNull(v.authSlug),
      auth_background_image: orNull(v.authBackgroundImage),
      auth_play_store_link: orNull(v.authPlayStoreLink),
      auth_app_store_link: orNull(v.authAppStoreLink),
      auth_logo: orNull(v.authLogo),
      auth_text_color: orNull(v.authTextColor),
      color_primary: v.colorPrimary,
      color_accent: v.colorAccent,
    },
    nav,
    hosts,
  };
}

/** The form fields whose values differ between the stored site and the new one. */
export function changedFields(before: Community | null, beforeHosts: string[], after: ValidSite): string[] {
  const changed: string[] = [];
  for (const [field, column] of Object.entries(COLUMNS) as [ColumnField, keyof ValidSite['columns']][]) {
    const now = after.columns[column] as string | null;
    const was = before ? ((before[column as keyof Community] as string | null) ?? null) : null;
    if ((now ?? null) !== was) changed.push(field);
  }
  if ((before?.forum_enabled ?? false) !== after.columns.forum_enabled) changed.push('forumEnabled');
  // jsonb keeps its own key order: compare the rows as [label, link] pairs.
  const rows = (nav: NavLink[]) => JSON.stringify(nav.map((n) => [n.label, n.link]));
  if (rows(before?.nav_more ?? []) !== rows(after.nav)) changed.push('nav');
  if ([...beforeHosts].sort().join('\n') !== [...after.hosts].sort().join('\n')) changed.push('hosts');
  return changed;
}

