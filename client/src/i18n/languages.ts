/** The interface languages; zh-CN is the default and the fallback (spec section 1). */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
/** Local-storage key of the user's explicit choice. */
export const LANGUAGE_STORAGE_KEY = 'language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Maps a browser tag like `en`, `en-GB` or `zh-Hans-CN` to a supported language, or null. */
export function matchLanguage(tag: string | null | undefined): Language | null {
  if (!tag) return null;
  const exact = LANGUAGES.find((language) => language.toLowerCase() === tag.toLowerCase());
  if (exact) return exact;
  const base = tag.toLowerCase().split('-')[0];
  return LANGUAGES.find((language) => language.toLowerCase().startsWith(`${base}-`)) ?? null;
}

function readStoredLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage can be blocked (privacy mode); detection then falls through to the browser language.
    return null;
  }
}

/** Detection order: stored choice, then the browser's languages, then the default. */
export function detectLanguage(): Language {
  const stored = readStoredLanguage();
  if (isLanguage(stored)) return stored;
  const browserTags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of browserTags) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return DEFAULT_LANGUAGE;
}

export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not persisting the choice is acceptable; the switch still applies to this visit.
  }
}
