import { sql } from 'kysely';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import { INDUSTRIES, matchingMemberIds } from '#src/features/members/index.ts';
import { groupAudience, groupChoices } from '#src/features/groups/index.ts';
import type { AudienceKind, AudienceOptions, StaffMessageForm, TeamMessageAudience } from './types.ts';

/**
 * Who a message goes to. The audience is a tagged value kept on the message (decision 0057): the whole
 * community, a group (through the groups area's face), a filter of the staff's member search (through the
 * members area's face), or a pasted list of emails. Resolved to the active members of the community
 * only: deactivated members and other communities' people never count and never receive it.
 */

export const EMAILS_MAX = 2000;
const FILTER_MAX = 200;

type Refuse = (field: string, key: string, values?: Record<string, unknown>) => void;

/** The audience as typed in the form; refusals named by field (into `refuse`). */
export function audienceOfForm(form: Pick<StaffMessageForm, 'audienceKind' | 'groupId' | 'tier' | 'founding' | 'industry' | 'location' | 'standing' | 'emails'>, refuse: Refuse): TeamMessageAudience | null {
  const kind = form.audienceKind as AudienceKind;
  if (kind === 'community') return { kind };
  if (kind === 'group') {
    if (!/^\d{1,9}$/.test(form.groupId) || Number(form.groupId) < 1) {
      refuse('groupId', 'groupRequired');
      return null;
    }
    return { kind, groupId: Number(form.groupId) };
  }
  if (kind === 'filter') {
    const text = (field: 'tier' | 'industry' | 'location' | 'standing') => {
      const v = form[field].trim();
      if (v.length > FILTER_MAX) refuse(field, 'tooLong', { max: FILTER_MAX });
      else if (hasForbiddenCharacters(v)) refuse(field, 'characters');
      return v || null;
    };
    const founding = form.founding === 'yes' ? true : form.founding === 'no' ? false : null;
    if (!['', 'yes', 'no'].includes(form.founding)) refuse('founding', 'foundingInvalid');
    const audience = { kind, tier: text('tier'), founding, industry: text('industry'), location: text('location'), standing: text('standing') } as const;
    if (audience.industry && !(INDUSTRIES as readonly string[]).includes(audience.industry)) refuse('industry', 'industryInvalid');
    return audience;
  }
  if (kind === 'emails') {
    if (hasForbiddenCharacters(form.emails, true)) {
      refuse('emails', 'characters');
      return null;
    }
    const emails = [...new Set(form.emails.split(/[\s,;]+/).map((e) => e.trim().toLowerCase()).filter(Boolean))];
    if (emails.length === 0) refuse('emails', 'emailsRequired');
    else if (emails.length > EMAILS_MAX) refuse('emails', 'emailsTooMany', { max: EMAILS_MAX });
    else {
      const bad = emails.filter((e) => e.length > 320 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(e));
      if (bad.length) refuse('emails', 'emailsInvalid', { list: bad.slice(0, 20).join(', '), count: bad.length });
    }
    return { kind, emails };
  }
  refuse('audienceKind', 'audienceRequired');
  return null;
}

/** The audience back as the form shows it. */
export function formOfAudience(a: TeamMessageAudience): Pick<StaffMessageForm, 'audienceKind' | 'groupId' | 'tier' | 'founding' | 'industry' | 'location' | 'standing' | 'emails'> {
  const blank = { audienceKind: a.kind, groupId: '', tier: '', founding: '', industry: '', location: '', standing: '', emails: '' };
  if (a.kind === 'group') return { ...blank, groupId: String(a.groupId) };
  if (a.kind === 'filter') return { ...blank, tier: a.tier ?? '', founding: a.founding === true ? 'yes' : a.founding === false ? 'no' : '', industry: a.industry ?? '', location: a.location ?? '', standing: a.standing ?? '' };
  if (a.kind === 'emails') return { ...blank, emails: a.emails.join('\n') };
  return blank;
}

/** The active members of the community (memberships and accounts both active). */
function activeMembers(db: Db, community: Tenant) {
  return selectInCommunityAs(db, 'memberships', 'm', community)
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.is_active', '=', true)
    .where('u.is_active', '=', true);
}

/**
 * The audience's members by user id (ascending), and for a list of emails the addresses that are not
 * active members here. A group that no longer exists (or is not wired yet) is null.
 */
export async function resolveAudience(db: Db, community: Tenant, audience: TeamMessageAudience): Promise<{ ids: number[]; unknown: string[] } | null> {
  switch (audience.kind) {
    case 'community': {
      const rows = await activeMembers(db, community).select('u.id').orderBy('u.id').execute();
      return { ids: rows.map((r) => r.id), unknown: [] };
    }
    case 'group': {
      const ids = await groupAudience(db, community, audience.groupId);
      if (ids === null) return null;
      // The group's word is checked again here: only active members of this community.
      return { ids: await onlyActive(db, community, ids), unknown: [] };
    }
    case 'filter': {
      const { kind: _k, ...search } = audience;
      return { ids: await matchingMemberIds({ db }, community, search), unknown: [] };
    }
    case 'emails': {
      if (audience.emails.length === 0) return { ids: [], unknown: [] };
      const rows = await activeMembers(db, community).select(['u.id', 'u.email']).where(sql<string>`lower(u.email)`, 'in', audience.emails).execute();
      const found = new Set(rows.map((r) => r.email.toLowerCase()));
      return { ids: rows.map((r) => r.id).sort((a, b) => a - b), unknown: audience.emails.filter((e) => !found.has(e)) };
    }
  }
}

async function onlyActive(db: Db, community: Tenant, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await activeMembers(db, community).select('u.id').where('u.id', 'in', ids).orderBy('u.id').execute();
  return rows.map((r) => r.id);
}

/** The audience's size, refusing a list of emails naming anyone who is not an active member (listed in the message). */
export async function countAudience(db: Db, community: Tenant, audience: TeamMessageAudience): Promise<number> {
  const resolved = await resolveAudience(db, community, audience);
  if (!resolved) throw new AppError('Messages.Invalid', { fields: { groupId: { code: 'Messages.Invalid', key: 'messagesAdmin.errors.groupGone' } } });
  if (resolved.unknown.length) {
    const fields: FieldErrors = { emails: { code: 'Messages.Invalid', key: 'messagesAdmin.errors.emailsNotMembers', values: { list: resolved.unknown.slice(0, 50).join(', '), count: resolved.unknown.length } } };
    throw new AppError('Messages.Invalid', { fields });
  }
  return resolved.ids.length;
}

/** The choices the form offers: the community's groups, tiers and standings in use, industries. */
export async function audienceOptions(db: Db, community: Tenant): Promise<AudienceOptions> {
  const [groups, tiers, standings] = await Promise.all([
    groupChoices(db, community),
    selectInCommunity(db, 'memberships', community).select('membership_tier as v').distinct().where('membership_tier', 'is not', null).orderBy('membership_tier').limit(50).execute(),
    selectInCommunity(db, 'memberships', community).select('standing as v').distinct().where('standing', 'is not', null).orderBy('standing').limit(50).execute(),
  ]);
  return { groups, tiers: tiers.map((r) => r.v!).filter(Boolean), standings: standings.map((r) => r.v!).filter(Boolean), industries: INDUSTRIES };
}
