import type { Clock } from '#src/core/clock.ts';
import { AppError, fieldsError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters, INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { ArticleStatusValue } from '#src/db/types.ts';
import { PUBLISHED } from '#src/features/articles/index.ts';
import { membersOf, activeMembersOf, SNAPSHOT_COLUMNS, toSnapshot } from './queries.ts';
import { INDUSTRIES, SOCIAL_NETWORKS, type MemberProfile, type ProfileArticle, type SocialLinks, type SocialNetwork } from './types.ts';

/**
 * A member's profile (spec section 3, "Member snapshot" and "Settings profile data"): reading it for
 * the profile page and GraphQL, and the member editing their own. Names are staff's to change.
 */

export type ProfileDeps = { db: Db; clock: Clock; community: Tenant };

/** The longest value each text field takes. */
export const PROFILE_LIMITS = {
  pronouns: 40,
  jobTitle: 120,
  companyName: 120,
  location: 120,
  areaOfFocus: 200,
  companyDescription: 1000,
  link: 300,
  employeeCount: 10_000_000,
} as const;

/** What the member edits: every field of the form (and of GraphQL's ProfileInput). */
export type ProfileInput = {
  pronouns: string | null;
  displayPronouns: boolean;
  jobTitle: string | null;
  companyName: string | null;
  location: string | null;
  industry: string | null;
  companyDescription: string | null;
  areaOfFocus: string | null;
  employeeCount: number | null;
  links: SocialLinks;
};

/** The fields as typed (forms send text): what a refused form shows again. */
export type ProfileDraft = { [K in Exclude<keyof ProfileInput, 'displayPronouns' | 'links' | 'employeeCount'>]: string } & {
  displayPronouns: boolean;
  employeeCount: string;
} & Record<SocialNetwork, string>;

const PROFILE_COLUMNS = [
  ...SNAPSHOT_COLUMNS,
  'memberships.location_familiar_name',
  'memberships.company_description',
  'memberships.company_area_of_focus',
  'memberships.company_employee_count',
  'memberships.link_linkedin',
  'memberships.link_twitter',
  'memberships.link_facebook',
  'memberships.link_instagram',
  'memberships.link_crunchbase',
  'memberships.link_angellist',
  'memberships.link_website',
  'memberships.joined_at',
  'memberships.is_founding',
  'memberships.profile_updated_at',
] as const;

/**
 * One member's profile in the community, or undefined: not a member here, or (activeOnly, the
 * default) deactivated in the community or as a user.
 */
export async function findProfile(deps: Pick<ProfileDeps, 'db' | 'community'>, userId: number, { activeOnly = true } = {}): Promise<MemberProfile | undefined> {
  const base = activeOnly ? activeMembersOf(deps.db, deps.community) : membersOf(deps.db, deps.community);
  const row = await base.select(PROFILE_COLUMNS).where('users.id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  return {
    ...toSnapshot(row),
    company: {
      name: row.company_name,
      description: row.company_description,
      areaOfFocus: row.company_area_of_focus,
      industry: row.industry,
      employeeCount: row.company_employee_count,
    },
    links: {
      linkedin: row.link_linkedin,
      twitter: row.link_twitter,
      facebook: row.link_facebook,
      instagram: row.link_instagram,
      crunchbase: row.link_crunchbase,
      angellist: row.link_angellist,
      website: row.link_website,
    },
    locationFamiliarName: row.location_familiar_name,
    joinedAt: row.joined_at,
    isFounding: row.is_founding,
    profileUpdatedAt: row.profile_updated_at,
  };
}

/** The member's published articles in the community, newest first (their current revision's title). */
export async function publishedArticles(deps: Pick<ProfileDeps, 'db' | 'community'>, userId: number, limit = 50): Promise<ProfileArticle[]> {
  const rows = await selectInCommunity(deps.db, 'articles', deps.community)
    .innerJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
    .select(['articles.id', 'article_revisions.title', 'articles.published_date', 'articles.article_url'])
    .where('articles.author_id', '=', userId)
    .where('articles.status', 'in', PUBLISHED as ArticleStatusValue[])
    .orderBy('articles.published_date', 'desc')
    .orderBy('articles.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, title: r.title, publishedDate: r.published_date, articleUrl: r.article_url }));
}

/** The form's values for a stored profile. */
export function draftOf(profile: MemberProfile): ProfileDraft {
  return {
    pronouns: profile.pronouns ?? '',
    displayPronouns: profile.displayPronouns,
    jobTitle: profile.jobTitle ?? '',
    companyName: profile.companyName ?? '',
    location: profile.location ?? '',
    industry: profile.industry ?? '',
    companyDescription: profile.company.description ?? '',
    areaOfFocus: profile.company.areaOfFocus ?? '',
    employeeCount: profile.company.employeeCount == null ? '' : String(profile.company.employeeCount),
    ...(Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, profile.links[n] ?? ''])) as Record<SocialNetwork, string>),
  };
}

// ---------------------------------------------------------------------------------------------
// Checking the links

/** Each network's profile addresses: the host names it uses and the shape of the path. */
const NETWORK_RULES: Record<Exclude<SocialNetwork, 'website'>, { hosts: string[]; path: RegExp }> = {
  linkedin: { hosts: ['linkedin.com'], path: /^\/(in|company)\/[^/]+\/?$/i },
  twitter: { hosts: ['twitter.com', 'x.com'], path: /^\/@?[A-Za-z0-9_]{1,15}\/?$/ },
  facebook: { hosts: ['facebook.com', 'fb.com'], path: /^\/(?!\/)[^?#]*[^/?#][^?#]*$/ },
  instagram: { hosts: ['instagram.com'], path: /^\/[A-Za-z0-9._]{1,30}\/?$/ },
  crunchbase: { hosts: ['crunchbase.com'], path: /^\/(person|organization)\/[^/]+\/?$/i },
  angellist: { hosts: ['angel.co', 'wellfound.com'], path: /^\/(?!\/)[^?#]*[^/?#][^?#]*$/ },
};

/**
 * A web address as the member typed it, made whole: one without a scheme ("linkedin.com/in/ada")
 * gets https://. Null when it is not an http(s) address with a host name that has a dot.
 */
export function webAddress(typed: string): URL | null {
  const value = /^[a-z][a-z0-9+.-]*:/i.test(typed) ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(url.hostname) || /^[\d.]+$/.test(url.hostname)) return null;
  return url;
}

/** The locale key of what is wrong with a link, or null when it is a profile address of its network. */
export function checkLink(network: SocialNetwork, typed: string): { value: string } | { error: string } {
  if (typed.length > PROFILE_LIMITS.link) return { error: 'profile.errors.linkTooLong' };
  const url = webAddress(typed);
  if (!url) return { error: 'profile.errors.webAddress' };
  if (network !== 'website') {
    const rule = NETWORK_RULES[network];
    const host = url.hostname.toLowerCase().replace(/^(www|m|mobile)\./, '');
    if (!rule.hosts.includes(host) || !rule.path.test(url.pathname)) return { error: `profile.errors.links.${network}` };
  }
  return { value: url.href };
}

// ---------------------------------------------------------------------------------------------
// Saving

const TEXT_FIELDS = ['pronouns', 'jobTitle', 'companyName', 'location', 'areaOfFocus', 'companyDescription'] as const;

/** Why each field is refused (locale keys), or the clean values. Empty text is null (the field is cleared). */
export function checkProfile(
  input: Partial<Record<keyof ProfileDraft, unknown>>,
  { currentIndustry = null }: { currentIndustry?: string | null } = {},
): { values: Partial<ProfileInput>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const values: Partial<ProfileInput> = {};
  const refuse = (field: string, key: string, extra: Record<string, unknown> = {}) => {
    errors[field] = { code: 'BadRequest.Validation', key, values: extra };
  };
  for (const field of TEXT_FIELDS) {
    if (!(field in input) || input[field] === undefined) continue;
    const raw = input[field];
    if (raw !== null && typeof raw !== 'string') {
      refuse(field, 'profile.errors.text');
      continue;
    }
    const text = (raw ?? '').trim();
    if (hasForbiddenCharacters(text, field === 'companyDescription')) {
      errors[field] = { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY };
    } else if (text.length > PROFILE_LIMITS[field]) {
      refuse(field, 'profile.errors.tooLong', { max: PROFILE_LIMITS[field] });
    } else {
      values[field] = text === '' ? null : text.replace(/\r\n?/g, '\n');
    }
  }
  if ('displayPronouns' in input && input.displayPronouns !== undefined) values.displayPronouns = input.displayPronouns === true;
  if ('industry' in input && input.industry !== undefined) {
    const industry = typeof input.industry === 'string' ? input.industry.trim() : input.industry;
    if (industry === null || industry === '') values.industry = null;
    // The list, or the member's industry as it is (one set before the list, or by staff) kept unchanged.
    else if (typeof industry === 'string' && ((INDUSTRIES as readonly string[]).includes(industry) || industry === currentIndustry)) values.industry = industry;
    else refuse('industry', 'profile.errors.industry');
  }
  if ('employeeCount' in input && input.employeeCount !== undefined) {
    const raw = input.employeeCount;
    const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim().replace(/[,\s]/g, '') : raw === null ? '' : null;
    if (text === '') values.employeeCount = null;
    else if (text !== null && /^\d{1,9}$/.test(text) && Number(text) >= 1 && Number(text) <= PROFILE_LIMITS.employeeCount) values.employeeCount = Number(text);
    else refuse('employeeCount', 'profile.errors.employeeCount', { max: PROFILE_LIMITS.employeeCount.toLocaleString('en-US') });
  }
  const links: Partial<SocialLinks> = {};
  for (const network of SOCIAL_NETWORKS) {
    if (!(network in input) || input[network] === undefined) continue;
    const raw = input[network];
    if (raw !== null && typeof raw !== 'string') {
      errors[network] = { code: 100, key: 'profile.errors.webAddress' };
      continue;
    }
    const text = (raw ?? '').trim();
    if (text === '') {
      links[network] = null;
      continue;
    }
    if (hasForbiddenCharacters(text)) {
      errors[network] = { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY };
      continue;
    }
    const checked = checkLink(network, text);
    // Catalogue code 100 (invalid URL), with the message that says what this network's address looks like.
    if ('error' in checked) errors[network] = { code: 100, key: checked.error };
    else links[network] = checked.value;
  }
  if (Object.keys(links).length) values.links = links as SocialLinks;
  return { values, errors };
}

/**
 * Saves the fields given (a field left out stays as it is) and stamps profile_updated_at. Refused
 * fields throw BadRequest.Validation naming each, and nothing is saved.
 */
export async function updateProfile(deps: ProfileDeps, userId: number, input: Partial<Record<keyof ProfileDraft, unknown>>): Promise<MemberProfile> {
  const current = await findProfile(deps, userId);
  if (!current) throw new AppError('NotFound');
  const { values, errors } = checkProfile(input, { currentIndustry: current.industry });
  if (Object.keys(errors).length) throw fieldsError(errors, 'BadRequest.Validation');
  const set: Record<string, unknown> = { profile_updated_at: deps.clock.now() };
  if (values.pronouns !== undefined) set.pronouns = values.pronouns;
  if (values.displayPronouns !== undefined) set.display_pronouns = values.displayPronouns;
  if (values.jobTitle !== undefined) set.job_title = values.jobTitle;
  if (values.companyName !== undefined) set.company_name = values.companyName;
  if (values.location !== undefined) {
    set.location_name = values.location;
    // The familiar name is the place itself: "Austin" of "Austin, TX".
    set.location_familiar_name = values.location ? values.location.split(',')[0]!.trim() || values.location : null;
  }
  if (values.industry !== undefined) set.industry = values.industry;
  if (values.companyDescription !== undefined) set.company_description = values.companyDescription;
  if (values.areaOfFocus !== undefined) set.company_area_of_focus = values.areaOfFocus;
  if (values.employeeCount !== undefined) set.company_employee_count = values.employeeCount;
  for (const [network, link] of Object.entries(values.links ?? {})) set[`link_${network}`] = link;

  const updated = await updateInCommunity(deps.db, 'memberships', deps.community)
    .set(set)
    .where('memberships.user_id', '=', userId)
    .where('memberships.is_active', '=', true)
    .returning('memberships.id')
    .executeTakeFirst();
  if (!updated) throw new AppError('NotFound');
  return (await findProfile(deps, userId, { activeOnly: false }))!;
}
