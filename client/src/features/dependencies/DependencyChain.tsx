import { Anchor, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import type { AgentStatus, DependencyChainItem, DependencyRef, MonitorStatus } from '@vigil/proto';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useRead } from '../../api/useRead';
import { agentDetailPath, monitorDetailPath } from '../../routes/paths';
import { AgentStatusBadge } from '../agents/components/AgentStatusBadge';
import { MonitorStatusBadge } from '../monitors/components/MonitorStatusBadge';
import { dependencyChain } from './api';
import { refKey } from './refs';

interface DependencyChainProps {
  target: DependencyRef;
  /** Changes when the chain may have changed (the item's status or its list): the chain is read again then. */
  version: string;
}

function ChainRow({ item, testId }: { item: DependencyChainItem; testId: string }) {
  const { ref } = item;
  return (
    // Deeper links sit further in, so a chain reads as a path: router → switch → this.
    <Group gap="xs" wrap="nowrap" pl={(Math.min(item.depth, 4) - 1) * 16} data-testid={testId} data-status={item.status}>
      <Anchor component={Link} to={ref.type === 'monitor' ? monitorDetailPath(ref.id) : agentDetailPath(ref.id)} size="sm" truncate="end">
        {item.name}
      </Anchor>
      {ref.type === 'monitor' ? (
        <MonitorStatusBadge monitor={{ active: item.active, status: item.status as MonitorStatus }} size="sm" />
      ) : (
        <AgentStatusBadge status={item.status as AgentStatus} unreachable={item.unreachable} size="sm" />
      )}
    </Group>
  );
}

/**
 * The detail pages' dependency chain: what the monitor or agent depends on (transitively, nearest first, each with its
 * status and a link) and what depends on it ("3 dependents"), from one read of the server's chain.
 */
export function DependencyChain({ target, version }: DependencyChainProps) {
  const { t } = useTranslation();
  const { type, id } = target;
  const read = useRead(
    // `version` is in the key on purpose: a new status or list reads the chain again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    useCallback((signal: AbortSignal) => dependencyChain({ type, id }, signal), [type, id, version]),
  );
  const chain = read.value;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="dependency-chain">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('dependencies.chain.title')}</Text>
        {read.status === 'loading' && <Loader size="xs" />}
      </Group>
      {read.status === 'error' && !chain && (
        <Group gap="xs">
          <Text size="sm" c="red">
            {t('dependencies.chain.loadError')}
          </Text>
          <Button size="compact-xs" variant="light" onClick={read.retry}>
            {t('common.retry')}
          </Button>
        </Group>
      )}
      {chain && (
        <Stack gap="md">
          <Stack gap={6} data-testid="dependency-chain-dependencies">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('dependencies.chain.dependsOn')}
            </Text>
            {chain.dependencies.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('dependencies.chain.none')}
              </Text>
            ) : (
              chain.dependencies.map((item) => <ChainRow key={refKey(item.ref)} item={item} testId={`dependency-${refKey(item.ref)}`} />)
            )}
          </Stack>
          <Stack gap={6} data-testid="dependency-chain-dependents">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('dependencies.chain.dependents', { count: chain.dependents.length })}
            </Text>
            {chain.dependents.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('dependencies.chain.noDependents')}
              </Text>
            ) : (
              chain.dependents.map((item) => <ChainRow key={refKey(item.ref)} item={item} testId={`dependent-${refKey(item.ref)}`} />)
            )}
          </Stack>
        </Stack>
      )}
    </Card>
  );
}
