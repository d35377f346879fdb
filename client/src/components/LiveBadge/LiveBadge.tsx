import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRealtimeStore } from '../../realtime/store';

/** Tells whether the screen follows changes live or falls back to periodic refreshes. */
export function LiveBadge() {
  const { t } = useTranslation();
  const connected = useRealtimeStore((state) => state.status === 'connected');
  return (
    <Tooltip label={connected ? t('realtime.live') : t('realtime.offline')}>
      <Badge variant="dot" color={connected ? 'green' : 'gray'} data-testid="live-badge" data-connected={connected || undefined}>
        {connected ? t('realtime.live') : t('realtime.paused')}
      </Badge>
    </Tooltip>
  );
}
