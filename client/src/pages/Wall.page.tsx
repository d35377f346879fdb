import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { holdLoginRedirect } from '../app/navigation';
import { WallBoard } from '../features/wall/components/WallBoard';
import { WallFeed } from '../features/wall/components/WallFeed';
import { WallHeader } from '../features/wall/components/WallHeader';
import { useWallStore } from '../features/wall/store';
import { problemCount, wallTiles } from '../features/wall/board';
import classes from '../features/wall/Wall.module.css';
import { connectWithDisplayKey, joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { RequireAuth } from '../routes/guards';

/** While the first read keeps failing (the server is restarting), the wall tries again this often by itself. */
export const WALL_RETRY_MS = 10_000;

/** Keeps a wall display awake; browsers without the Wake Lock API (or that refuse it) just let it sleep. */
function useScreenWakeLock(): void {
  useEffect(() => {
    const wakeLock = (navigator as Navigator & { wakeLock?: { request(type: 'screen'): Promise<{ release(): Promise<void> }> } }).wakeLock;
    if (!wakeLock) return;
    let sentinel: { release(): Promise<void> } | null = null;
    let active = true;
    const request = () => {
      if (document.visibilityState !== 'visible') return;
      wakeLock.request('screen').then(
        (next) => (active ? (sentinel = next) : void next.release()),
        () => undefined,
      );
    };
    request();
    // The lock is dropped whenever the tab is hidden; take it again when it shows.
    document.addEventListener('visibilitychange', request);
    return () => {
      active = false;
      document.removeEventListener('visibilitychange', request);
      void sentinel?.release().catch(() => undefined);
    };
  }, []);
}

/** A full-screen message, or one filling the board when `inBoard`. */
function WallMessage({ title, hint, testId, inBoard = false }: { title: string; hint?: string; testId: string; inBoard?: boolean }) {
  return (
    <div className={inBoard ? classes.boardMessage : classes.message} data-testid={testId} role={inBoard ? 'status' : 'alert'}>
      <div className={classes.messageTitle}>{title}</div>
      {hint && <div className={classes.messageHint}>{hint}</div>}
    </div>
  );
}

/**
 * The NOC wall for one display key (or the signed-in user): live through the `wall` room, read again after every
 * reconnect and every 60 s while the socket is down, never asking for a click.
 */
function WallScreen({ displayKey }: { displayKey: string | null }) {
  const { t } = useTranslation();
  const { data, status, rejected, load } = useWallStore(
    useShallow((state) => ({ data: state.data, status: state.status, rejected: state.rejected, load: state.load })),
  );

  useEffect(() => {
    useWallStore.getState().open(displayKey);
    void useWallStore.getState().load();
  }, [displayKey]);
  // With a key the screen has no session: it must neither use one nor be sent to sign in when one expires.
  useEffect(() => (displayKey === null ? undefined : connectWithDisplayKey(displayKey)), [displayKey]);
  useEffect(() => (displayKey === null ? undefined : holdLoginRedirect()), [displayKey]);
  useEffect(() => joinRoom('wall'), []);
  usePollingFallback(useCallback((signal: AbortSignal) => void load({ quiet: true, signal }), [load]));
  useEffect(() => {
    if (status !== 'error') return;
    const timer = setTimeout(() => void load(), WALL_RETRY_MS);
    return () => clearTimeout(timer);
  }, [status, load]);
  useScreenWakeLock();

  useEffect(() => {
    const previous = document.title;
    document.title = `${t('wall.title')} · ${t('app.name')}`;
    return () => {
      document.title = previous;
    };
  }, [t]);

  const tiles = useMemo(() => (data ? wallTiles(data) : []), [data]);
  const problems = useMemo(() => (data ? problemCount(data) : 0), [data]);

  if (rejected) return <WallMessage title={t('server.wall.keyInvalid')} hint={t('wall.invalidKeyHint')} testId="wall-invalid" />;

  return (
    <div className={classes.screen} data-testid="wall">
      <WallHeader overall={data?.overall ?? null} problems={problems} total={tiles.length} />
      <div className={classes.body}>
        {data ? (
          tiles.length > 0 ? (
            <WallBoard tiles={tiles} />
          ) : (
            <div className={classes.board}>
              <WallMessage title={t('wall.empty')} testId="wall-empty" inBoard />
            </div>
          )
        ) : (
          <div className={classes.board} data-testid="wall-loading">
            <WallMessage
              title={status === 'error' ? t('wall.loadError') : t('common.loading')}
              testId={status === 'error' ? 'wall-error' : 'wall-wait'}
              inBoard
            />
          </div>
        )}
        <WallFeed changes={data?.recent_changes ?? []} />
      </div>
    </div>
  );
}

/**
 * `/wall`: with `?key=` a screen opened with a display link (no sign-in, never the session's token); without one,
 * a signed-in user's wall, and a visitor goes to the login page.
 */
export default function WallPage() {
  const [params] = useSearchParams();
  const key = params.get('key');
  if (key) return <WallScreen displayKey={key} />;
  return (
    <RequireAuth>
      <WallScreen displayKey={null} />
    </RequireAuth>
  );
}
