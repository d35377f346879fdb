import type { PageTheme } from '@vigil/proto';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { STATUS_PAGE_CLASS, useCustomCss } from '../customCss';
import { errorText } from '../errors';
import { type PageTexts, TextsContext } from '../i18n';
import { followPage } from '../live';
import type { PageStore } from '../pageStore';
import { isGroupOpen } from '../pageState';
import { BarsContext, marksByDate } from './DayBar';
import { PasswordForm, SubscribeForm } from './Forms';
import { Banner, Footer, Header } from './Frame';
import { GroupSection } from './Groups';
import { ActiveIncidents, History, MaintenanceList } from './Notices';

/** The page's theme on the document: `auto` follows the visitor's system (public.css). */
function useTheme(theme: PageTheme): void {
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}

function useWindowTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}

interface PublicAppProps {
  store: PageStore;
  texts: PageTexts;
  /** `?subscribed=1`: the visitor came back from the confirmation link. */
  subscribed?: boolean;
  /** After a password page is unlocked (a full reload, so the live socket carries the new cookie too). */
  reload?: () => void;
}

/**
 * A public status page: banner, active incidents, maintenance, groups of components, incident history, footer, and
 * the subscription forms. Read once, then live through `status:<slug>`; a password page asks for its password first.
 * Everything sits inside `.vigil-status-page`, the only place the page's custom CSS reaches.
 */
export function PublicApp({ store, texts, subscribed = false, reload = () => window.location.reload() }: PublicAppProps) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { data, phase } = state;
  const { t } = texts;

  useEffect(() => {
    void store.load();
  }, [store]);
  const live = data !== null;
  useEffect(() => (live ? followPage(store) : undefined), [live, store]);

  useTheme(data?.page.theme ?? 'auto');
  useWindowTitle(data?.page.title.trim() || t('page.title'));
  useCustomCss(data?.page.customCss);
  useEffect(() => {
    document.documentElement.lang = texts.language;
  }, [texts.language]);
  const bars = useMemo(
    () => ({ marksByDate: marksByDate(data?.marks ?? []), updatedAt: data?.updated_at ?? '' }),
    [data?.marks, data?.updated_at],
  );

  const notFound = phase === 'error' && state.error?.status === 404;
  return (
    <TextsContext.Provider value={texts}>
      <div className={STATUS_PAGE_CLASS} id={STATUS_PAGE_CLASS} data-testid="status-page">
        <main className="vp-main">
          <Header
            title={data?.page.title.trim() || t('page.title')}
            description={data?.page.description ?? ''}
            logoUrl={data?.page.logoUrl ?? null}
            updatedAt={data?.updated_at ?? null}
            connected={state.connected}
          />
          {subscribed && (
            <p className="vp-notice" role="status" data-testid="subscribed-notice">
              {t('subscribe.confirmed')}
            </p>
          )}
          {phase === 'locked' && <PasswordForm slug={store.slug} reload={reload} />}
          {phase === 'loading' && !data && (
            <p className="vp-muted vp-center" data-testid="status-loading">
              {t('page.loading')}
            </p>
          )}
          {phase === 'error' && (
            <div className="vp-card vp-center" role="alert" data-testid="status-error">
              <p>{notFound ? t('page.notFound') : errorText(t, state.error, t('page.loadError'))}</p>
              {!notFound && (
                <button type="button" className="vp-button" onClick={() => void store.load()}>
                  {t('page.retry')}
                </button>
              )}
            </div>
          )}
          {data && phase === 'ready' && (
            <BarsContext.Provider value={bars}>
              <Banner overall={data.overall} />
              <ActiveIncidents incidents={data.incidents} />
              <MaintenanceList windows={data.maintenance} />
              {data.groups.length === 0 ? (
                <p className="vp-muted vp-center" data-testid="status-empty">
                  {t('page.empty')}
                </p>
              ) : (
                <div className="vp-groups" data-testid="status-groups">
                  {data.groups.map((group) => (
                    <GroupSection
                      key={group.index}
                      group={group}
                      open={isGroupOpen(state, group)}
                      read={state.reads[group.index]}
                      onToggle={(index) => store.toggle(index)}
                      onMore={(index) => store.more(index)}
                    />
                  ))}
                </div>
              )}
              <History incidents={data.history} days={data.page.historyDays} />
              <SubscribeForm slug={store.slug} email={data.page.subscribe.email} webhook={data.page.subscribe.webhook} />
            </BarsContext.Provider>
          )}
          <Footer slug={store.slug} text={data?.page.footer ?? ''} />
        </main>
      </div>
    </TextsContext.Provider>
  );
}
