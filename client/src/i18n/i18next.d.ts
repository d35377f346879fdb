import 'i18next';
import type enUS from './locales/en-US.json';

// Typed keys: a misspelt or missing key in a `t()` call is a compile error, checked against the English dictionary.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof enUS };
  }
}
