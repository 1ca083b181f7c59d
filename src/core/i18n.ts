import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';

type MessageFormatElement = ReturnType<IntlMessageFormat['getAst']>[number];
/** The parser's element types (its TYPE enum; intl-messageformat does not re-export it). */
const TYPE = { literal: 0, argument: 1, select: 5, plural: 6, pound: 7 } as const;

export const LOCALES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../locales');
/** Each area keeps its own messages beside its code, in `src/features/<area>/locales/<locale>/*.json`. */
const FEATURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../features');

/** The folders holding a locale's files: the platform's (errors, formats, the shell), then every area's. */
export function localeDirs(locale: string): string[] {
  const areas = readdirSync(FEATURES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(FEATURES_DIR, d.name, 'locales', locale))
    .filter((dir) => existsSync(dir))
    .sort();
  return [path.join(LOCALES_DIR, locale), ...areas];
}

export type Translate = (key: string, values?: Record<string, unknown>) => string;

function flatten(prefix: string, value: unknown, into: Map<string, string>) {
  if (typeof value === 'string') {
    into.set(prefix, value);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v, into);
  }
}

/** Reads locales/<locale>/*.json once; each file's name is the first segment of its keys. */
export function loadMessages(locale = 'en'): Map<string, string> {
  const messages = new Map<string, string>();
  const seen = new Map<string, string>();
  for (const dir of localeDirs(locale)) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      const namespace = path.basename(file, '.json');
      // A namespace belongs to one folder: two areas may not both say `forum.*`.
      if (seen.has(namespace)) throw new Error(`locale namespace ${namespace} is in ${seen.get(namespace)} and ${dir}`);
      seen.set(namespace, dir);
      flatten(namespace, JSON.parse(readFileSync(path.join(dir, file), 'utf8')), messages);
    }
  }
  return messages;
}

/** Thrown by the quick formatter for what it leaves to IntlMessageFormat (a missing value, tags, dates…). */
const SLOW = Symbol('slow');

/**
 * Formats the common ICU elements (text, `{name}`, plural with `#`, select) straight from the parsed
 * message, as IntlMessageFormat does but without its per-call parts arrays and its memoised formatter
 * look-ups (a JSON key per plural); anything else throws SLOW and goes to IntlMessageFormat.
 */
function quickFormat(
  els: MessageFormatElement[],
  values: Record<string, unknown> | undefined,
  plural: { rules: (type: 'cardinal' | 'ordinal') => Intl.PluralRules; number: Intl.NumberFormat },
  pluralValue?: number,
): string {
  let out = '';
  for (const el of els) {
    if (el.type === TYPE.literal) {
      out += el.value;
      continue;
    }
    if (el.type === TYPE.pound) {
      if (typeof pluralValue === 'number') out += plural.number.format(pluralValue);
      continue;
    }
    if (!values || !(el.value in values)) throw SLOW;
    const value = values[el.value];
    if (el.type === TYPE.argument) {
      if (typeof value === 'string') out += value;
      else if (typeof value === 'number' || typeof value === 'bigint') out += String(value);
      else if (value) throw SLOW; // an object: IntlMessageFormat answers parts
      continue;
    }
    if (el.type === TYPE.select) {
      const opt = (Object.prototype.hasOwnProperty.call(el.options, value as string) ? el.options[value as string] : undefined) ?? el.options.other;
      if (!opt) throw SLOW;
      out += quickFormat(opt.value, values, plural);
      continue;
    }
    if (el.type === TYPE.plural) {
      const exact = `=${value as string}`;
      const numeric = (typeof value === 'bigint' ? Number(value) : (value as number)) - (el.offset || 0);
      let opt = Object.prototype.hasOwnProperty.call(el.options, exact) ? el.options[exact] : undefined;
      if (!opt) {
        const rule = plural.rules(el.pluralType ?? 'cardinal').select(numeric);
        opt = (Object.prototype.hasOwnProperty.call(el.options, rule) ? el.options[rule] : undefined) ?? el.options.other;
      }
      if (!opt) throw SLOW;
      out += quickFormat(opt.value, values, plural, numeric);
      continue;
    }
    throw SLOW;
  }
  return out;
}

export function createTranslator(locale = 'en', messages = loadMessages(locale)): Translate {
  const compiled = new Map<string, IntlMessageFormat>();
  const rules = new Map<string, Intl.PluralRules>();
  const plural = {
    rules: (type: 'cardinal' | 'ordinal') => {
      let r = rules.get(type);
      if (!r) rules.set(type, (r = new Intl.PluralRules(locale, { type })));
      return r;
    },
    number: new Intl.NumberFormat(locale),
  };
  return (key, values) => {
    let format = compiled.get(key);
    if (!format) {
      const source = messages.get(key);
      if (source === undefined) throw new Error(`Missing message "${key}" for locale ${locale}`);
      format = new IntlMessageFormat(source, locale);
      compiled.set(key, format);
    }
    try {
      return quickFormat(format.getAst(), values, plural);
    } catch (e) {
      if (e !== SLOW) throw e;
    }
    return String(format.format(values as Record<string, string>));
  };
}
