import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './App';
import { shareCspNonce } from './app/cspNonce';

shareCspNonce();
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element to mount Vigil into');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
