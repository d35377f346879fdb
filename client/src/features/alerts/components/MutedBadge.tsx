import { Badge, Tooltip } from '@mantine/core';
import { IconBellOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../monitors/format';
import { activeMute } from '../live';
import { useNow } from '../useNow';

/** "Muted until …" beside a detail page's status while notifications are snoozed; nothing otherwise. */
export function MutedBadge({ until, testId }: { until: string | null | undefined; testId?: string }) {
  const { t, i18n } = useTranslation();
  const muted = activeMute(until, useNow());
  if (!muted) return null;
  return (
    <Badge color="gray" variant="light" size="lg" leftSection={<IconBellOff size={14} />} data-testid={testId}>
      {t('alerts.mute.mutedUntil', { time: formatDateTime(muted, i18n.language) })}
    </Badge>
  );
}

/** A small bell-off icon beside a name in lists while the monitor or agent is muted. */
export function MutedIcon({ until, testId }: { until: string | null | undefined; testId?: string }) {
  const { t, i18n } = useTranslation();
  const muted = activeMute(until, useNow());
  if (!muted) return null;
  const label = t('alerts.mute.mutedUntil', { time: formatDateTime(muted, i18n.language) });
  return (
    <Tooltip label={label} withinPortal>
      <IconBellOff
        size={14}
        aria-label={label}
        role="img"
        color="var(--mantine-color-dimmed)"
        style={{ flexShrink: 0, marginInlineStart: 4, verticalAlign: 'middle' }}
        data-testid={testId}
      />
    </Tooltip>
  );
}
