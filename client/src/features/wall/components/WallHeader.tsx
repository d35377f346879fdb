import type { OverallStatus } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealtimeStore } from '../../../realtime/store';
import classes from '../Wall.module.css';

function Clock() {
  const { i18n } = useTranslation();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className={classes.clock} data-testid="wall-clock">
      <div className={classes.clockTime}>
        {now.toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}
      </div>
      <div className={classes.clockDate}>
        {now.toLocaleDateString(i18n.language, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' })}
      </div>
    </div>
  );
}

function Connection() {
  const { t } = useTranslation();
  const status = useRealtimeStore((state) => state.status);
  const label = status === 'connected' ? t('wall.live') : status === 'connecting' ? t('wall.connecting') : t('wall.reconnecting');
  return (
    <div className={classes.connection} data-state={status} data-testid="wall-connection" role="status">
      <span className={classes.connectionDot} />
      {label}
    </div>
  );
}

interface WallHeaderProps {
  overall: OverallStatus | null;
  problems: number;
  total: number;
}

/** The wall's top line: name, the overall state with how many items need attention, the connection and a clock. */
export function WallHeader({ overall, problems, total }: WallHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className={classes.header}>
      <div className={classes.brand}>
        {t('app.name')}
        <span className={classes.brandMuted}>{t('wall.title')}</span>
      </div>
      {overall && (
        <div className={classes.overall} data-overall={overall} data-testid="wall-overall">
          {t(`statusPage.overall.${overall}`)}
          <span className={classes.overallDetail}>
            · {problems > 0 ? t('wall.summary', { problems, total }) : t('wall.allGood', { total })}
          </span>
        </div>
      )}
      <div className={classes.side}>
        <Connection />
        <Clock />
      </div>
    </header>
  );
}
