import type { StatusChange } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { statusLabel } from '../../status/labels';
import classes from '../Wall.module.css';

type Tone = 'up' | 'down' | 'pending' | 'degraded' | 'unreachable';

function tone(status: string): Tone {
  if (status === 'up' || status === 'active') return 'up';
  if (status === 'degraded' || status === 'unreachable') return status;
  return status === 'down' || status === 'inactive' ? 'down' : 'pending';
}

function time(at: string, language: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** The latest transitions, newest on top; older ones fall off the bottom rather than scroll. */
export function WallFeed({ changes }: { changes: readonly StatusChange[] }) {
  const { t, i18n } = useTranslation();
  return (
    <section className={classes.feed} data-testid="wall-feed" aria-live="polite">
      <div className={classes.feedTitle}>{t('wall.feed')}</div>
      {changes.length === 0 ? (
        <div className={classes.feedTime}>{t('wall.feedEmpty')}</div>
      ) : (
        <ul className={classes.feedList}>
          {changes.map((change, index) => (
            <li key={`${change.kind}-${change.id}-${change.at}-${index}`} className={classes.feedEntry} data-testid="wall-feed-entry">
              <span className={classes.feedTime}>{time(change.at, i18n.language)}</span>
              <span className={classes.feedName}>{change.name}</span>
              <span className={classes.feedChange}>
                <span className={classes.feedStatus} data-tone={tone(change.previous)}>
                  {statusLabel(t, change.kind, change.previous)}
                </span>
                {' → '}
                <span className={classes.feedStatus} data-tone={tone(change.status)}>
                  {statusLabel(t, change.kind, change.status)}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
