import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';

export const LOCALES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../locales');

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
  const dir = path.join(LOCALES_DIR, locale);
  const messages = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    flatten(path.basename(file, '.json'), JSON.parse(readFileSync(path.join(dir, file), 'utf8')), messages);
  }
  return messages;
}

export function createTranslator(locale = 'en', messages = loadMessages(locale)): Translate {
  const compiled = new Map<string, IntlMessageFormat>();
  return (key, values) => {
    let format = compiled.get(key);
    if (!format) {
      const source = messages.get(key);
      if (source === undefined) throw new Error(`Missing message "${key}" for locale ${locale}`);
      format = new IntlMessageFormat(source, locale);
      compiled.set(key, format);
    }
    return String(format.format(values as Record<string, string>));
  };
}
