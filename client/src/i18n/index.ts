import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { detectLanguage, isLanguage, LANGUAGES, type Language, storeLanguage } from './languages';

/**
 * Each language's dictionary is its own chunk, fetched when the language is first used: a visitor downloads one of
 * them (each is about as large as the rest of the app's first screen), not both.
 */
const DICTIONARIES: Record<Language, () => Promise<{ default: ResourceKey }>> = {
  'zh-CN': () => import('./locales/zh-CN.json'),
  'en-US': () => import('./locales/en-US.json'),
};

const lazyDictionaries: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    if (!isLanguage(language)) return callback(new Error(`No dictionary for ${language}`), false);
    DICTIONARIES[language]().then(
      (module) => callback(null, module.default),
      (error: Error) => callback(error, false),
    );
  },
};

function applyDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

i18n.on('languageChanged', applyDocumentLanguage);

/** Settles once the first language's dictionary is in: main.tsx renders after it, so the first paint is translated. */
export const i18nReady: Promise<unknown> = i18n
  .use(lazyDictionaries)
  .use(initReactI18next)
  .init({
    lng: detectLanguage(),
    // Both dictionaries have the same keys (i18n.test.ts), so no second language is fetched as a fallback.
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  })
  .then(() => applyDocumentLanguage(i18n.language));

/** Switches the interface language (fetching its dictionary first) and remembers the choice for the next visit. */
export function changeLanguage(language: Language): Promise<unknown> {
  storeLanguage(language);
  return i18n.changeLanguage(language);
}

export default i18n;
