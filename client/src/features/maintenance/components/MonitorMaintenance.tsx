import { ActionIcon, Anchor, Badge, HoverCard, Loader, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import type { MaintenanceDto } from '@vigil/proto';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useRead } from '../../../api/useRead';
import { joinRoom } from '../../../realtime/socket';
import { maintenanceEditPath } from '../../../routes/paths';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { STATUS_COLORS } from '../../monitors/format';
import { maintenanceApi } from '../api';
import { formatInstant } from '../format';
import { useMaintenanceChanges } from '../store';

/** Windows read for one monitor: the server sorts those under way first, then the next to start. */
const WINDOWS_READ = 5;

/** The window under way for the monitor, else the next one to start; null when none covers it. */
export function currentWindow(windows: readonly MaintenanceDto[]): MaintenanceDto | null {
  return (
    windows.find((entry) => entry.phase === 'active' && entry.current) ??
    windows.find((entry) => entry.phase === 'scheduled' && entry.current) ??
    null
  );
}

/** "In maintenance until …" or "Maintenance planned … – …". */
export function windowText(t: TFunction, language: string, entry: MaintenanceDto): string {
  const current = entry.current;
  if (!current) return t('maintenance.occurrence.none');
  if (entry.phase === 'active') {
    return current.end
      ? t('maintenance.hint.activeUntil', { end: formatInstant(current.end, language) })
      : t('maintenance.hint.activeOpen');
  }
  return t('maintenance.hint.next', {
    start: formatInstant(current.start, language),
    end: current.end ? formatInstant(current.end, language) : t('maintenance.occurrence.open'),
  });
}

/** The window covering a monitor, read again when its status (`version`) or a pushed window change moves. */
function useMonitorWindow(monitorId: number, version: string) {
  const changes = useMaintenanceChanges((state) => state.version);
  const query = useMemo(() => ({ monitorId, version, changes }), [monitorId, version, changes]);
  return useRead(
    useCallback(
      async (signal: AbortSignal) =>
        currentWindow(
          (await maintenanceApi.list({ phase: 'all', search: '', page: 1, pageSize: WINDOWS_READ, monitorId: query.monitorId }, signal))
            .maintenance,
        ),
      [query],
    ),
  );
}

function WindowLine({ entry }: { entry: MaintenanceDto }) {
  const { t, i18n } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  const text = windowText(t, i18n.language, entry);
  return (
    <>
      <Text size="sm">{text}</Text>
      <Text size="xs" c="dimmed">
        {canWrite ? (
          <Anchor component={Link} to={maintenanceEditPath(entry.id)} size="xs">
            {t('maintenance.hint.window', { title: entry.title })}
          </Anchor>
        ) : (
          t('maintenance.hint.window', { title: entry.title })
        )}
      </Text>
    </>
  );
}

/**
 * The monitor detail's badge: "In maintenance until …" while a window covers it, or the next planned window;
 * nothing when none covers it (or the read fails). Live: joins the maintenance room while shown.
 */
export function MonitorMaintenance({ monitorId, status }: { monitorId: number; status: string }) {
  const { t, i18n } = useTranslation();
  const read = useMonitorWindow(monitorId, status);
  useEffect(() => joinRoom('maintenance'), []);
  const entry = read.value;
  if (!entry) return null;
  return (
    <HoverCard withinPortal position="bottom-start" shadow="md">
      <HoverCard.Target>
        <Badge
          color={STATUS_COLORS.maintenance}
          variant={entry.phase === 'active' ? 'filled' : 'light'}
          leftSection={<IconTool size={12} />}
          style={{ cursor: 'default', maxWidth: '100%' }}
          data-testid="monitor-maintenance"
          data-phase={entry.phase}
        >
          {windowText(t, i18n.language, entry)}
        </Badge>
      </HoverCard.Target>
      <HoverCard.Dropdown maw={320}>
        <WindowLine entry={entry} />
      </HoverCard.Dropdown>
    </HoverCard>
  );
}

function WindowCard({ monitorId }: { monitorId: number }) {
  const { t } = useTranslation();
  const read = useMonitorWindow(monitorId, 'maintenance');
  if (read.status === 'loading') return <Loader size="xs" />;
  if (!read.value) return <Text size="sm">{t('maintenance.occurrence.none')}</Text>;
  return <WindowLine entry={read.value} />;
}

/** The list's hint beside a monitor in maintenance: its window is read only when the user asks (hover or tap). */
export function MonitorMaintenanceHint({ monitorId }: { monitorId: number }) {
  const { t } = useTranslation();
  return (
    <HoverCard withinPortal position="bottom" shadow="md" openDelay={150}>
      <HoverCard.Target>
        <ActionIcon
          size="sm"
          variant="subtle"
          color={STATUS_COLORS.maintenance}
          aria-label={t('maintenance.hint.show')}
          data-testid={`monitor-maintenance-hint-${monitorId}`}
        >
          <IconTool size={14} />
        </ActionIcon>
      </HoverCard.Target>
      <HoverCard.Dropdown maw={320}>
        <WindowCard monitorId={monitorId} />
      </HoverCard.Dropdown>
    </HoverCard>
  );
}
