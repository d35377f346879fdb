import { Anchor, Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconActivity, IconArrowRight, IconServer } from '@tabler/icons-react';
import type { StatusChange } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { agentDetailPath, monitorDetailPath } from '../../../routes/paths';
import { AckButton } from '../../alerts/components/AckButton';
import { alertsOf } from '../../alerts/store';
import { useOpenAlerts } from '../../alerts/useOpenAlerts';
import { formatDateTime } from '../../monitors/format';
import { statusColor, statusLabel } from '../../status/labels';

/** The last status changes of monitors and agents, newest first, each linking to its detail page. */
export function StatusFeed({ changes }: { changes: readonly StatusChange[] }) {
  const { t, i18n } = useTranslation();
  const openAlerts = useOpenAlerts();
  // A target's open alert is offered for acknowledgement once, on its newest entry.
  const offered = new Set<string>();
  return (
    <Card withBorder radius="md" padding="lg" data-testid="dashboard-feed">
      <Text fw={600} mb="md">
        {t('dashboard.feed.title')}
      </Text>
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('dashboard.feed.empty')}
        </Text>
      ) : (
        <Stack gap="sm">
          {changes.map((change, index) => {
            const Icon = change.kind === 'monitor' ? IconActivity : IconServer;
            const path = change.kind === 'monitor' ? monitorDetailPath(change.id) : agentDetailPath(change.id);
            const key = `${change.kind}-${change.id}`;
            const alert = offered.has(key) ? undefined : alertsOf(openAlerts, change.kind, change.id).find((open) => open.state === 'open');
            offered.add(key);
            return (
              <Group
                key={`${change.kind}-${change.id}-${change.at}-${index}`}
                gap="sm"
                wrap="nowrap"
                align="flex-start"
                data-testid="dashboard-feed-entry"
                data-status={change.status}
              >
                <ThemeIcon variant="light" color={statusColor(change.kind, change.status)} radius="xl" size="md">
                  <Icon size={14} />
                </ThemeIcon>
                <Stack gap={0} miw={0} style={{ flex: 1 }}>
                  <Anchor component={Link} to={path} size="sm" fw={500} truncate="end">
                    {change.name}
                  </Anchor>
                  <Group gap={4} wrap="nowrap">
                    <Text size="xs" c="dimmed">
                      {statusLabel(t, change.kind, change.previous)}
                    </Text>
                    <IconArrowRight size={12} color="var(--mantine-color-dimmed)" />
                    <Text size="xs" fw={600} c={statusColor(change.kind, change.status)}>
                      {statusLabel(t, change.kind, change.status)}
                    </Text>
                  </Group>
                </Stack>
                <Stack gap={4} align="flex-end">
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(change.at, i18n.language)}
                  </Text>
                  {alert && <AckButton alert={alert} />}
                </Stack>
              </Group>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
