import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from './i18n';
import { App } from './App';
import { shareCspNonce } from './app/cspNonce';

shareCspNonce();
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element to mount Vigil into');

// The active language's dictionary is fetched on its own; rendering after it keeps untranslated keys off the screen
// (a failed fetch still renders, with the keys).
await i18nReady.catch(() => undefined);
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
