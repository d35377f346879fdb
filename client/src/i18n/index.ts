import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, detectLanguage, type Language, storeLanguage } from './languages';
import enUS from './locales/en-US.json';
import zhCN from './locales/zh-CN.json';

export const resources = {
  'zh-CN': { translation: zhCN },
  'en-US': { translation: enUS },
} as const;

function applyDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

i18n.on('languageChanged', applyDocumentLanguage);

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: ['zh-CN', 'en-US'],
  // Resources are bundled, so initialisation is synchronous and the first render is already translated.
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});
applyDocumentLanguage(i18n.language);

/** Switches the interface language and remembers the choice for the next visit. */
export function changeLanguage(language: Language): Promise<unknown> {
  storeLanguage(language);
  return i18n.changeLanguage(language);
}

export default i18n;
