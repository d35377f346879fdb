import { createContext, useContext } from 'react';
import { DEFAULT_LANGUAGE, type Language, matchLanguage } from '../i18n/languages';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';

/**
 * The public page's own texts: two small dictionaries bundled with it (the operator app's are far larger and not
 * loaded here). zh-CN is the default, as in the operator app.
 */
export const PUBLIC_DICTIONARIES = { 'zh-CN': zhCN, 'en-US': enUS } as const;

type Tree = { readonly [key: string]: string | Tree };
/** Every dotted key of the English dictionary, so a misspelt key is a compile error. */
type Keys<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Keys<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type TextKey = Keys<typeof enUS>;
export type Translate = (key: TextKey, values?: Record<string, string | number>) => string;

/** Language: `?lang=` first (links shared in one language), then the browser's languages, then zh-CN. */
export function pageLanguage(search: string, browser: readonly string[]): Language {
  const asked = matchLanguage(new URLSearchParams(search).get('lang'));
  if (asked) return asked;
  for (const tag of browser) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return DEFAULT_LANGUAGE;
}

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** A translator for one language; a key missing there falls back to English, then to the key itself. */
export function translator(language: Language): Translate {
  const dictionary: Tree = PUBLIC_DICTIONARIES[language];
  return (key, values) => {
    const text = lookup(dictionary, key) ?? lookup(enUS, key) ?? key;
    return values ? text.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => String(values[name] ?? whole)) : text;
  };
}

export interface PageTexts {
  language: Language;
  t: Translate;
  /** A date and time in the page's language, in the visitor's time zone. */
  dateTime: (iso: string) => string;
  /** A number with up to two decimals in the page's language. */
  number: (value: number) => string;
}

export function pageTexts(language: Language): PageTexts {
  const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  const numbers = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  return {
    language,
    t: translator(language),
    dateTime: (iso) => {
      const time = new Date(iso);
      return Number.isNaN(time.getTime()) ? '' : dates.format(time);
    },
    number: (value) => numbers.format(value),
  };
}

export const TextsContext = createContext<PageTexts>(pageTexts(DEFAULT_LANGUAGE));

export const useTexts = (): PageTexts => useContext(TextsContext);
