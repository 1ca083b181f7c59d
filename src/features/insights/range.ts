import type { Day } from '#src/lib/figures.ts';
import { addDays, daysBetween, isDay } from './calendar.ts';
import { RANGE_PRESETS, type RangeForm, type RangePreset } from './types.ts';

/**
 * The staff home's date range (links and a GET form, without JavaScript): a preset (the last 4 or 12
 * weeks, 6, 12 or 24 months: links) or a custom from/to (a form; both days included). A custom range that is not one
 * comes back with a message next to its field, what was typed kept, and the default range shown.
 */

export const DEFAULT_PRESET: RangePreset = '12w';
/** The longest range: two years (the staff home's charts are cut by month beyond half a year). */
export const MAX_RANGE_DAYS = 731;

const PRESET_DAYS: Record<RangePreset, number> = { '4w': 28, '12w': 84, '6m': 182, '12m': 365, '24m': 730 };

export type ParsedRange = { from: Day; to: Day; form: RangeForm; errors: Record<'from' | 'to', string | undefined> };

const isPreset = (v: string): v is RangePreset => (RANGE_PRESETS as readonly string[]).includes(v);

function presetRange(preset: RangePreset, today: Day): { from: Day; to: Day } {
  return { from: addDays(today, -(PRESET_DAYS[preset] - 1)), to: today };
}

/** Errors are message keys (insights.range.errors.*), the route's to translate. */
export function parseRange(query: { range?: string; from?: string; to?: string; community?: string }, today: Day): ParsedRange {
  const range = (query.range ?? '').trim();
  const fromText = (query.from ?? '').trim();
  const toText = (query.to ?? '').trim();
  const form: RangeForm = { range: range || DEFAULT_PRESET, from: query.from ?? '', to: query.to ?? '', community: query.community ?? '' };
  // Dates given: the custom range (the presets are links that carry none).
  const custom = range === 'custom' || fromText !== '' || toText !== '';
  if (!custom) {
    const preset = isPreset(range) ? range : DEFAULT_PRESET;
    return { ...presetRange(preset, today), form: { ...form, range: preset }, errors: { from: undefined, to: undefined } };
  }
  form.range = 'custom';
  const errors: ParsedRange['errors'] = { from: undefined, to: undefined };
  if (fromText === '') errors.from = 'insights.range.errors.fromMissing';
  else if (!isDay(fromText)) errors.from = 'insights.range.errors.notADay';
  if (toText === '') errors.to = 'insights.range.errors.toMissing';
  else if (!isDay(toText)) errors.to = 'insights.range.errors.notADay';
  else if (toText > today) errors.to = 'insights.range.errors.future';
  if (!errors.from && !errors.to) {
    if (fromText > toText) errors.from = 'insights.range.errors.afterTo';
    else if (daysBetween(fromText, toText) + 1 > MAX_RANGE_DAYS) errors.from = 'insights.range.errors.tooLong';
  }
  if (errors.from || errors.to) return { ...presetRange(DEFAULT_PRESET, today), form, errors };
  return { from: fromText, to: toText, form, errors };
}
