import { AppError, fieldsError, type FieldErrors } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity } from '#src/db/tenancy.ts';
import { activeBlackout, type BlackoutWindow } from './rules.ts';
import type { ArticleDeps, Person } from './queries.ts';
import { ensureEditor } from './shared.ts';

export async function listBlackouts(deps: Pick<ArticleDeps, 'db' | 'community'>): Promise<BlackoutWindow[]> {
  const rows = await selectInCommunity(deps.db, 'blackout_windows', deps.community).select(['starts_on', 'ends_before']).orderBy('starts_on').execute();
  return rows.map((r) => ({ startsOn: String(r.starts_on), endsBefore: String(r.ends_before) }));
}

export async function addBlackout(deps: ArticleDeps, person: Person, window: BlackoutWindow): Promise<void> {
  ensureEditor(person);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(window.startsOn) || !/^\d{4}-\d{2}-\d{2}$/.test(window.endsBefore) || window.startsOn >= window.endsBefore) {
    throw new AppError(140, { fields: { startsOn: { code: 140, key: 'errors.client.invalidDate' } } });
  }
  await insertInCommunity(deps.db, 'blackout_windows', deps.community, { starts_on: window.startsOn, ends_before: window.endsBefore }).execute();
}

export async function blackoutNow(deps: ArticleDeps): Promise<BlackoutWindow | null> {
  return activeBlackout(deps.clock.now(), await listBlackouts(deps));
}

/** The community's blackout windows with their ids, soonest first (for the admin list). */
export async function listBlackoutWindows(deps: ArticleDeps, person: Person) {
  ensureEditor(person);
  const rows = await selectInCommunity(deps.db, 'blackout_windows', deps.community).select(['id', 'starts_on', 'ends_before']).orderBy('starts_on').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, startsOn: String(r.starts_on), endsBefore: String(r.ends_before) }));
}

/** A calendar day written YYYY-MM-DD that exists (no 2025-02-30). */
function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * Adds a blackout window from the admin form, with a message for each field: both days required and
 * real, the end (the first day submissions are open again) after the start.
 */
export async function addBlackoutWindow(deps: ArticleDeps, person: Person, input: { startsOn: unknown; endsBefore: unknown }): Promise<void> {
  ensureEditor(person);
  ensureText({ startsOn: input.startsOn, endsBefore: input.endsBefore });
  const startsOn = typeof input.startsOn === 'string' ? input.startsOn.trim() : '';
  const endsBefore = typeof input.endsBefore === 'string' ? input.endsBefore.trim() : '';
  const fields: FieldErrors = {};
  const check = (field: string, value: string) => {
    if (!value) fields[field] = { code: 900, key: 'admin.articles.blackouts.required' };
    else if (!isCalendarDay(value)) fields[field] = { code: 140, key: 'admin.articles.blackouts.badDate' };
  };
  check('startsOn', startsOn);
  check('endsBefore', endsBefore);
  if (!fields.startsOn && !fields.endsBefore && endsBefore <= startsOn) fields.endsBefore = { code: 140, key: 'admin.articles.blackouts.endBeforeStart' };
  if (Object.keys(fields).length) throw fieldsError(fields, 'Articles.Invalid');
  await addBlackout(deps, person, { startsOn, endsBefore });
}

/** Removes one of the community's blackout windows; another community's id is not found. */
export async function deleteBlackout(deps: ArticleDeps, person: Person, id: number): Promise<void> {
  ensureEditor(person);
  const result = await deleteInCommunity(deps.db, 'blackout_windows', deps.community).where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) throw new AppError('NotFound');
}
