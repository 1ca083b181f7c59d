import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql, type Transaction } from 'kysely';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { AppError, fieldsError, type FieldErrors } from '#src/core/errors.ts';
import { emailField, hasForbiddenCharacters } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import type { Community, Database, NavLink } from '#src/db/types.ts';
import { STATIC_DIR } from '#src/lib/assets.ts';

/**
 * Sites (brands as data): the communities an admin administers, created and edited in the admin area
 * (spec section 3, "Community (client data)"). Every transport (the forms, GraphQL) calls these; the
 * caller invalidates its own process's cache after a change, and the NOTIFY sent in the change's
 * transaction tells every other node (see changes.ts).
 */

/** publicHost: the host of the app's public address (PUBLIC_URL), which no site may take. */
export type SiteDeps = { db: Db; publicHost?: string };
/** Who acts: a signed-in user (their ADMIN memberships decide which sites they may see and edit). */
export type SiteActor = { userId: number };

/** The channel every node listens on; a change to a community or its hosts sends it in its transaction. */
export const COMMUNITIES_CHANNEL = 'communities_changed';

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
const COLUMNS = {
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
type ColumnField = keyof typeof COLUMNS;
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
  columns: Omit<Community, 'id' | 'code' | 'created_at' | 'updated_at' | 'article_terms' | 'article_guidelines' | 'article_application_url' | 'nav_more' | 'forum_all_posts_wait'> & { nav_more: string };
  nav: NavLink[];
  hosts: string[];
};

const invalid = (key: string, values?: Record<string, unknown>) => ({ code: 'BadRequest.Validation' as const, key, values });

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

const isAdminOf = sql<boolean>`'ADMIN' = any(memberships.roles)`;

/** The ids of the communities this user administers (an active membership with the ADMIN role). */
function administered(db: Db | Transaction<Database>, userId: number) {
  return db.selectFrom('memberships').select('memberships.community_id').where('memberships.user_id', '=', userId).where('memberships.is_active', '=', true).where(isAdminOf);
}

/** The code of the platform staff's own community (spec section 2: its admins land on the sites page). */
export const PLATFORM_CODE = 'admin';

/**
 * Whether the user is platform staff: an admin of the `admin` community. Only they create sites or
 * change host names: a host name not yet mapped is served as the default community, so a brand's
 * admin who could claim one could put their pages (and sign-in) on the deployment's own address.
 */
export async function isPlatformStaff(db: Db | Transaction<Database>, userId: number): Promise<boolean> {
  const row = await administered(db, userId)
    .innerJoin('communities', 'communities.id', 'memberships.community_id')
    .where('communities.code', '=', PLATFORM_CODE)
    .executeTakeFirst();
  return Boolean(row);
}

/** A host name that is an IP address (v4 or v6) is never a site's: it reaches whatever the server answers. */
const isIpLiteral = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':') || host.startsWith('[');

export type SiteRow = { id: number; code: string; name: string; hosts: string[]; forumEnabled: boolean; memberCount: number; colorPrimary: string };

/** The sites this admin administers, by name, with their hosts and active member counts. */
export async function listSites(deps: SiteDeps, actor: SiteActor): Promise<SiteRow[]> {
  const rows = await deps.db
    .selectFrom('communities')
    .select((eb) => [
      'communities.id',
      'communities.code',
      'communities.name',
      'communities.forum_enabled',
      'communities.color_primary',
      eb
        .selectFrom('memberships')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('memberships.community_id', '=', 'communities.id')
        .where('memberships.is_active', '=', true)
        .as('member_count'),
      eb
        .selectFrom('community_hosts')
        .select(sql<string[]>`coalesce(array_agg(community_hosts.host order by community_hosts.host), '{}')`.as('h'))
        .whereRef('community_hosts.community_id', '=', 'communities.id')
        .as('hosts'),
    ])
    .where('communities.id', 'in', administered(deps.db, actor.userId))
    .orderBy('communities.name')
    .orderBy('communities.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    hosts: r.hosts ?? [],
    forumEnabled: r.forum_enabled,
    memberCount: Number(r.member_count ?? 0),
    colorPrimary: r.color_primary,
  }));
}

/** A site this admin administers, with its hosts; NotFound for any other (another brand's existence is not told). */
export async function getSite(deps: SiteDeps, actor: SiteActor, code: string): Promise<{ community: Community; hosts: string[] }> {
  if (!CODE_PATTERN.test(code)) throw new AppError('NotFound');
  const community = await deps.db
    .selectFrom('communities')
    .selectAll()
    .where('code', '=', code)
    .where('id', 'in', administered(deps.db, actor.userId))
    .executeTakeFirst();
  if (!community) throw new AppError('NotFound');
  const hosts = await deps.db.selectFrom('community_hosts').select('host').where('community_id', '=', community.id).orderBy('host').execute();
  return { community, hosts: hosts.map((h) => h.host) };
}

/** Host names of this list that another community already has. */
async function takenHosts(trx: Transaction<Database>, hosts: string[], exceptCommunityId: number | null): Promise<string[]> {
  if (!hosts.length) return [];
  let q = trx.selectFrom('community_hosts').select('host').where('host', 'in', hosts);
  if (exceptCommunityId !== null) q = q.where('community_id', '<>', exceptCommunityId);
  return (await q.execute()).map((r) => r.host);
}

const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === '23505';

/** Tells every node (their listeners) that communities changed; delivered when the transaction commits. */
export async function announceChange(trx: Transaction<Database> | Db): Promise<void> {
  await sql`select pg_notify(${COMMUNITIES_CHANNEL}, '')`.execute(trx);
}

async function record(trx: Transaction<Database>, communityId: number, actor: SiteActor, action: 'site.create' | 'site.update', changed: string[]) {
  await trx.insertInto('staff_actions').values({ community_id: communityId, actor_id: actor.userId, member_id: null, action, detail: changed.join(',') }).execute();
}

/**
 * Creates a site. The code is chosen here once and never changes (cookies, bearer tokens and links
 * carry it). The creating admin becomes an ADMIN member of it, so they can administer it.
 */
export async function createSite(deps: SiteDeps, actor: SiteActor, form: SiteForm): Promise<{ id: number; code: string }> {
  if (!(await isPlatformStaff(deps.db, actor.userId))) throw new AppError('Forbidden');
  const site = validateSite(form);
  refuseReservedHosts(deps, site.hosts);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const fields: FieldErrors = {};
      if (await trx.selectFrom('communities').select('id').where('code', '=', site.code).executeTakeFirst()) fields.code = invalid('sites.errors.codeTaken');
      const taken = await takenHosts(trx, site.hosts, null);
      if (taken.length) fields.hosts = invalid('sites.errors.hostTaken', { hosts: taken.join(', ') });
      if (Object.keys(fields).length) throw new AppError('BadRequest.Validation', { fields });
      const created = await trx.insertInto('communities').values({ code: site.code, ...site.columns }).returning(['id', 'code']).executeTakeFirstOrThrow();
      if (site.hosts.length) await trx.insertInto('community_hosts').values(site.hosts.map((host) => ({ host, community_id: created.id }))).execute();
      await trx
        .insertInto('memberships')
        .values({ community_id: created.id, user_id: actor.userId, roles: ['ADMIN', 'MEMBER'] })
        .onConflict((oc) => oc.columns(['community_id', 'user_id']).doNothing())
        .execute();
      await record(trx, created.id, actor, 'site.create', ['code', ...changedFields(null, [], site)]);
      await announceChange(trx);
      return created;
    });
  } catch (e) {
    // Two admins creating the same code or host at once: the loser hears it as the field's message.
    if (isUniqueViolation(e)) throw uniqueError(e);
    throw e;
  }
}

/** The deployment's own host and IP literals are never a site's host name. */
function refuseReservedHosts(deps: SiteDeps, hosts: string[]) {
  const reserved = hosts.filter((h) => isIpLiteral(h) || (deps.publicHost && h === deps.publicHost));
  if (reserved.length) throw new AppError('BadRequest.Validation', { fields: { hosts: invalid('sites.errors.hostReserved', { hosts: reserved.join(', ') }) } });
}

function uniqueError(e: unknown): AppError {
  const detail = String((e as { constraint?: string; detail?: string }).constraint ?? '') + String((e as { detail?: string }).detail ?? '');
  return detail.includes('host')
    ? new AppError('BadRequest.Validation', { fields: { hosts: invalid('sites.errors.hostTaken', { hosts: '' }) } })
    : new AppError('BadRequest.Validation', { fields: { code: invalid('sites.errors.codeTaken') } });
}

/** The form fields whose values differ between the stored site and the new one. */
function changedFields(before: Community | null, beforeHosts: string[], after: ValidSite): string[] {
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

/**
 * Updates a site this admin administers (the code stays). Returns the names of the changed fields;
 * records them as a staff action when there are any.
 */
export async function updateSite(deps: SiteDeps, actor: SiteActor, code: string, form: SiteForm): Promise<{ id: number; changed: string[] }> {
  const { community, hosts: beforeHosts } = await getSite(deps, actor, code);
  const site = validateSite({ ...form, code: community.code });
  if ([...beforeHosts].sort().join('\n') !== [...site.hosts].sort().join('\n')) {
    if (!(await isPlatformStaff(deps.db, actor.userId))) throw new AppError('BadRequest.Validation', { fields: { hosts: invalid('sites.errors.hostsPlatformOnly') } });
    refuseReservedHosts(deps, site.hosts.filter((h) => !beforeHosts.includes(h)));
  }
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const taken = await takenHosts(trx, site.hosts, community.id);
      if (taken.length) throw new AppError('BadRequest.Validation', { fields: { hosts: invalid('sites.errors.hostTaken', { hosts: taken.join(', ') }) } });
      const changed = changedFields(community, beforeHosts, site);
      if (!changed.length) return { id: community.id, changed };
      await trx.updateTable('communities').set({ ...site.columns, updated_at: new Date() }).where('id', '=', community.id).execute();
      if (changed.includes('hosts')) {
        const removed = beforeHosts.filter((h) => !site.hosts.includes(h));
        const added = site.hosts.filter((h) => !beforeHosts.includes(h));
        if (removed.length) await trx.deleteFrom('community_hosts').where('community_id', '=', community.id).where('host', 'in', removed).execute();
        if (added.length) await trx.insertInto('community_hosts').values(added.map((host) => ({ host, community_id: community.id }))).execute();
      }
      await record(trx, community.id, actor, 'site.update', changed);
      await announceChange(trx);
      return { id: community.id, changed };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw uniqueError(e);
    throw e;
  }
}

export type DashboardLink = { code: string; name: string; url: string | null };

/**
 * The admin area of each site this admin administers, on the site's own host (its first host name),
 * with the scheme and port of the request (or of the app's public address) so local hosts such as
 * summit.localhost:3000 work too. A site without a host name has no address of its own (url null).
 */
export function dashboardLinks(sites: SiteRow[], origin: { protocol: string; port: string | null; basePath: string }): DashboardLink[] {
  return sites.map((s) => {
    const host = s.hosts[0];
    const port = origin.port ? `:${origin.port}` : '';
    return { code: s.code, name: s.name, url: host ? `${origin.protocol}://${host}${port}${origin.basePath}/admin` : null };
  });
}
