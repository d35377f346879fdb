import { DEFAULT_PAGE_SLUG } from '@vigil/proto/status-pages';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PublicApp } from './components/PublicApp';
import { pageLanguage, pageTexts } from './i18n';
import { PageStore } from './pageStore';
import './public.css';

/**
 * Which page this is: the server names it in `<meta name="vigil-page">` (it knows custom domains); without one (the
 * Vite dev server) the path says it: `/status/<slug>`, or the default page.
 */
function pageSlug(): string {
  const named = document.querySelector<HTMLMetaElement>('meta[name="vigil-page"]')?.content.trim();
  if (named) return named;
  const match = /^\/status\/([^/]+)\/?$/.exec(window.location.pathname);
  return match ? decodeURIComponent(match[1]) : DEFAULT_PAGE_SLUG;
}

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element to mount the status page into');
const search = window.location.search;
const languages = navigator.languages?.length ? navigator.languages : [navigator.language];

createRoot(root).render(
  <StrictMode>
    <PublicApp
      store={new PageStore(pageSlug())}
      texts={pageTexts(pageLanguage(search, languages))}
      subscribed={new URLSearchParams(search).get('subscribed') === '1'}
    />
  </StrictMode>,
);
