import { Anchor, Badge, Button, Card, Divider, Group, Loader, Stack, Text } from '@mantine/core';
import type { MonitorDto, MonitorLocationDto } from '@vigil/proto';
import { Fragment, useCallback, useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useRead } from '../../../api/useRead';
import { liveCache } from '../../../live/cache';
import { usePollingFallback } from '../../../realtime/usePollingFallback';
import { agentDetailPath } from '../../../routes/paths';
import { formatDateTime, formatResponseTime, formatUptime } from '../format';
import { LOCATION_COLORS, LOCATIONS_VIEW, loadLocations } from '../locations';

const table = liveCache.monitorLocations;

/** One location: its name and status on the first line (kept narrow enough for a phone), its figures and error below. */
function LocationRow({ location }: { location: MonitorLocationDto }) {
  const { t, i18n } = useTranslation();
  const name =
    location.agent_id === null ? (
      t('monitor.locations.server')
    ) : (
      <Anchor component={Link} to={agentDetailPath(location.agent_id)} inherit>
        {location.name}
      </Anchor>
    );
  return (
    <Stack gap={2} py="xs" data-testid={`monitor-location-${location.location}`} data-status={location.status}>
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text size="sm" fw={500} truncate miw={0}>
          {name}
        </Text>
        <Badge
          variant="light"
          color={LOCATION_COLORS[location.status]}
          style={{ flexShrink: 0 }}
          title={location.status === 'unknown' ? t('monitor.locations.unknownHint') : undefined}
          data-testid="monitor-location-status"
        >
          {t(`monitor.locations.status.${location.status}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" data-testid="monitor-location-figures">
        {t('monitor.locations.figures', {
          latency: t('monitor.overview.ms', { value: formatResponseTime(location.response_time) }),
          uptime: location.uptime === null ? '-' : t('monitor.overview.percent', { value: formatUptime(location.uptime) }),
          checked: location.checked_at ? formatDateTime(location.checked_at, i18n.language) : t('monitor.overview.notChecked'),
        })}
      </Text>
      {location.error && (
        <Text size="xs" c="red" style={{ overflowWrap: 'anywhere' }} data-testid="monitor-location-error">
          {location.error}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Where a monitor is checked from, one row per location with its last result and 24 h uptime, live through the
 * cache (`monitor.location` pushes). Read again when its locations or quorum are edited, or its status changes (an
 * agent going offline turns its locations unknown), and while the socket is down.
 */
export function MonitorLocationsCard({ monitor }: { monitor: MonitorDto }) {
  const { t } = useTranslation();
  const { id } = monitor;
  const version = `${monitor.locations.join(',')}|${monitor.quorum}|${monitor.quorum_min}|${monitor.status}`;
  const read = useRead(
    // `version` is in the key on purpose: such a change reads the locations again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    useCallback((signal: AbortSignal) => loadLocations(id, signal), [id, version]),
  );
  useEffect(() => () => table.show(LOCATIONS_VIEW, []), []);
  usePollingFallback(useCallback((signal: AbortSignal) => void loadLocations(id, signal).catch(() => undefined), [id]));
  const row = useSyncExternalStore(table.subscribe, () => table.get(id));

  return (
    <Card withBorder radius="md" padding="lg" data-testid="monitor-locations">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{t('monitor.locations.title')}</Text>
          {row && (
            <Text size="sm" c="dimmed" data-testid="monitor-locations-rule">
              {t(`monitor.locations.rule.${row.quorum}`, { count: row.quorum_min ?? 1 })}
            </Text>
          )}
        </Group>
        {!row && read.status === 'error' && (
          <Group gap="sm">
            <Text size="sm" c="red">
              {t('monitor.locations.loadError')}
            </Text>
            <Button size="xs" variant="light" onClick={read.retry}>
              {t('common.retry')}
            </Button>
          </Group>
        )}
        {!row && read.status !== 'error' && <Loader size="sm" aria-label={t('common.loading')} />}
        {row && (
          <div>
            {row.locations.map((location, index) => (
              <Fragment key={location.location}>
                {index > 0 && <Divider />}
                <LocationRow location={location} />
              </Fragment>
            ))}
          </div>
        )}
      </Stack>
    </Card>
  );
}
