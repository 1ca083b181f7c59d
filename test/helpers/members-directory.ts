import type { RawDb as Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { createMember, type TestUser } from './factories.ts';

export type ProfileFields = {
  company?: string | null;
  title?: string | null;
  location?: string | null;
  industry?: string | null;
  employees?: number | null;
  founding?: boolean;
  pronouns?: string | null;
  displayPronouns?: boolean;
  joinedAt?: Date;
  active?: boolean;
  userActive?: boolean;
};

/** A member with the directory's fields set (the search columns follow by trigger). */
export async function createDirectoryMember(db: Db, community: Community, firstName: string, lastName: string, p: ProfileFields = {}): Promise<TestUser> {
  const user = await createMember(db, community, { firstName, lastName, active: p.active ?? true });
  await db
    .updateTable('memberships')
    .set({
      company_name: p.company === undefined ? 'Acme Corp' : p.company,
      job_title: p.title === undefined ? 'Chief Executive Officer' : p.title,
      location_name: p.location === undefined ? 'Austin, TX' : p.location,
      location_familiar_name: p.location ? p.location.split(',')[0]! : null,
      industry: p.industry ?? null,
      company_employee_count: p.employees ?? null,
      is_founding: p.founding ?? false,
      pronouns: p.pronouns ?? null,
      display_pronouns: p.displayPronouns ?? false,
      joined_at: p.joinedAt ?? new Date('2025-01-15T00:00:00Z'),
    })
    .where('user_id', '=', user.id)
    .where('community_id', '=', community.id)
    .execute();
  if (p.userActive === false) await db.updateTable('users').set({ is_active: false }).where('id', '=', user.id).execute();
  return user;
}

/** The profile links of a directory page, in order: the members it shows. */
export const profileIds = (html: string): number[] => [...html.matchAll(/<a href="\/profile\/(\d+)">/g)].map((m) => Number(m[1]));

/** The next / previous page links of a directory page. */
export const pageLink = (html: string, rel: 'next' | 'prev'): string | null => {
  const m = new RegExp(`<a href="([^"]+)" rel="${rel}"`).exec(html);
  return m ? m[1]!.replace(/&amp;/g, '&') : null;
};
