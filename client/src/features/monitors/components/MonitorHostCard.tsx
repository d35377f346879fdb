import { Anchor, Badge, Button, Card, Divider, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import type { HostChange, HostContextDto, MonitorDto } from '@vigil/proto';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../api/http';
import { useRead } from '../../../api/useRead';
import { agentDetailPath } from '../../../routes/paths';
import { AgentStatusBadge } from '../../agents/components/AgentStatusBadge';
import { formatPercent } from '../../agents/format';
import { monitorsApi } from '../api';
import { formatDateTime } from '../format';

/** The monitor names no host agent (any more: its agent was deleted since the monitor was read). */
const hasNoHost = (error: unknown) => error instanceof ApiError && error.code === 'monitors.hostAgentNone';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="xs" c="dimmed" truncate>
        {label}
      </Text>
      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** One change: what it is on the first line with its state as a badge, and when below. */
function ChangeRow({ change }: { change: HostChange }) {
  const { t, i18n } = useTranslation();
  const time = (at: string | null) => formatDateTime(at, i18n.language);
  let name: string;
  let state: { label: string; color: string };
  let when: string | null;
  if (change.kind === 'container') {
    name = t('monitor.host.container', { name: change.name });
    state =
      change.state === 'running'
        ? { label: t('agent.insight.containers.healths.unhealthy'), color: 'orange' }
        : { label: t(`agent.insight.containers.states.${change.state}`), color: 'red' };
    when = change.since && t('monitor.host.since', { time: time(change.since) });
  } else if (change.kind === 'service') {
    name = change.name;
    state = { label: t(`agent.insight.services.states.${change.state}`), color: 'red' };
    when = change.since && t('monitor.host.since', { time: time(change.since) });
  } else {
    const metric = t(`alerts.metrics.${change.metric}`, { defaultValue: change.metric });
    name = change.item ? t('monitor.host.alertItem', { metric, item: change.item }) : t('monitor.host.alert', { metric });
    const open = change.closed_at === null;
    state = { label: t(open ? 'monitor.host.alertOpen' : 'monitor.host.alertResolved'), color: open ? 'red' : 'gray' };
    when = open
      ? t('monitor.host.opened', { time: time(change.opened_at) })
      : t('monitor.host.openedClosed', { opened: time(change.opened_at), closed: time(change.closed_at) });
  }
  return (
    <Stack gap={2} py="xs" data-testid="monitor-host-change" data-kind={change.kind}>
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {name}
        </Text>
        <Badge variant="light" color={state.color} style={{ flexShrink: 0 }}>
          {state.label}
        </Badge>
      </Group>
      {when && (
        <Text size="xs" c="dimmed">
          {when}
        </Text>
      )}
    </Stack>
  );
}

function HostBody({ host }: { host: HostContextDto }) {
  const { t, i18n } = useTranslation();
  const { figures } = host;
  return (
    <Stack gap="sm">
      <Text size="sm" c={host.offline_since ? 'red' : 'dimmed'} data-testid="monitor-host-reported">
        {host.offline_since
          ? t('monitor.host.offlineSince', { time: formatDateTime(host.offline_since, i18n.language) })
          : host.reported_at
            ? t('monitor.host.reportedAt', { time: formatDateTime(host.reported_at, i18n.language) })
            : t('monitor.host.neverReported')}
      </Text>
      <SimpleGrid cols={{ base: 2, xs: 3, md: 5 }} spacing="sm" verticalSpacing="xs">
        <Figure label={t('monitor.host.cpu')} value={formatPercent(figures.cpu)} testId="monitor-host-cpu" />
        <Figure label={t('monitor.host.memory')} value={formatPercent(figures.memory)} testId="monitor-host-memory" />
        <Figure label={t('monitor.host.swap')} value={formatPercent(figures.swap)} testId="monitor-host-swap" />
        <Figure
          label={figures.disk ? t('monitor.host.diskOf', { mount: figures.disk.mount }) : t('monitor.host.disk')}
          value={formatPercent(figures.disk?.percent)}
          testId="monitor-host-disk"
        />
        <Figure label={t('monitor.host.load')} value={figures.load ? figures.load.join(' / ') : '-'} testId="monitor-host-load" />
      </SimpleGrid>
      <Divider />
      <Text size="sm" fw={600}>
        {t('monitor.host.changes')}
      </Text>
      {host.changes.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="monitor-host-no-changes">
          {t('monitor.host.noChanges')}
        </Text>
      ) : (
        <div>
          {host.changes.map((change, index) => (
            <div key={index}>
              {index > 0 && <Divider />}
              <ChangeRow change={change} />
            </div>
          ))}
        </div>
      )}
      {host.more_changes > 0 && (
        <Text size="xs" c="dimmed" data-testid="monitor-host-more">
          {t('monitor.host.more', { count: host.more_changes })}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The host a monitor runs on (issue 32, requirement 9): its agent's status, last figures and what changed on it
 * lately (containers stopped, units failed, the host's alerts), linking to the agent's page. Read again after each
 * check of the monitor, so a down monitor shows the host as it stood when it went down.
 */
export function MonitorHostCard({ monitor }: { monitor: MonitorDto }) {
  const { t } = useTranslation();
  const { id } = monitor;
  const version = `${monitor.host_agent_id}|${monitor.status}|${monitor.last_checked}`;
  const read = useRead<HostContextDto>(
    // `version` is in the key on purpose: a check or a new host reads the host again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    useCallback((signal: AbortSignal) => monitorsApi.host(id, signal).then((answer) => answer.host), [id, version]),
  );
  const host = read.value;
  if (read.status === 'error' && hasNoHost(read.error)) return null;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="monitor-host">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Text fw={600} style={{ flexShrink: 0 }}>
              {t('monitor.host.title')}
            </Text>
            {host && (
              <Anchor component={Link} to={agentDetailPath(host.agent.id)} truncate data-testid="monitor-host-agent">
                {host.agent.name}
              </Anchor>
            )}
          </Group>
          {host && <AgentStatusBadge status={host.agent.status} mode="detail" testId="monitor-host-status" />}
        </Group>
        {!host && read.status === 'error' && (
          <Group gap="sm">
            <Text size="sm" c="red">
              {t('monitor.host.loadError')}
            </Text>
            <Button size="xs" variant="light" onClick={read.retry}>
              {t('common.retry')}
            </Button>
          </Group>
        )}
        {!host && read.status !== 'error' && <Loader size="sm" aria-label={t('common.loading')} />}
        {host && <HostBody host={host} />}
      </Stack>
    </Card>
  );
}
