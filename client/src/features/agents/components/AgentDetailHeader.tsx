import { Button, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconRefresh, IconTrash } from '@tabler/icons-react';
import type { AgentDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { InfoItem } from '../../../components/InfoItem/InfoItem';
import { LiveBadge } from '../../../components/LiveBadge/LiveBadge';
import { agentEditPath, PATHS } from '../../../routes/paths';
import { MuteMenu } from '../../alerts/components/MuteMenu';
import { MutedBadge } from '../../alerts/components/MutedBadge';
import { MaintenanceBadge } from '../../maintenance/components/MaintenanceBadge';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { formatDateTime } from '../../monitors/format';
import { formatSpan, primaryAddress, spanBetween } from '../format';
import { AgentStatusBadge } from './AgentStatusBadge';

interface AgentDetailHeaderProps {
  agent: AgentDto;
  refreshing: boolean;
  /** True while deleting or once deleted: nothing more can be done here. */
  locked: boolean;
  onRefresh: () => void;
  onDelete: () => void;
}

/**
 * Back link, name with the online/offline badge, refresh, edit and delete, then hostname with IP, 'uptime' (the
 * span from registration to the last update) and the last update (spec section 2).
 */
export function AgentDetailHeader({ agent, refreshing, locked, onRefresh, onDelete }: AgentDetailHeaderProps) {
  const { t, i18n } = useTranslation();
  // A viewer reads only: no edit or delete.
  const canWrite = useAuthStore(selectCanWrite);
  const uptime = formatSpan(spanBetween(agent.created_at, agent.updated_at), (unit, count) => t(`agent.duration.${unit}`, { count }));
  return (
    <Stack gap="md">
      <Button
        component={Link}
        to={PATHS.agents}
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        w="fit-content"
        px={0}
        data-testid="agent-back"
      >
        {t('agent.back')}
      </Button>
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" miw={0}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="agent-detail-name">
            {agent.name}
          </Title>
          <AgentStatusBadge status={agent.status} mode="detail" unreachable={agent.unreachable} size="lg" testId="agent-detail-status" />
          {agent.maintenance && <MaintenanceBadge size="lg" testId="agent-detail-maintenance" />}
          <MutedBadge until={agent.muted_until} testId="agent-detail-muted" />
          <LiveBadge />
        </Group>
        <Group gap="xs">
          <Button
            variant="light"
            leftSection={<IconRefresh size={16} />}
            loading={refreshing}
            disabled={locked}
            onClick={onRefresh}
            data-testid="agent-refresh"
          >
            {t('agent.refresh')}
          </Button>
          {canWrite && (
            <>
              <Button
                component={Link}
                to={agentEditPath(agent.id)}
                variant="default"
                leftSection={<IconPencil size={16} />}
                disabled={locked}
                data-testid="agent-edit"
              >
                {t('agent.edit')}
              </Button>
              <MuteMenu kind="agent" id={agent.id} mutedUntil={agent.muted_until} />
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                disabled={locked}
                onClick={onDelete}
                data-testid="agent-delete"
              >
                {t('agent.delete')}
              </Button>
            </>
          )}
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <InfoItem label={t('agent.system.hostname')} testId="agent-detail-host">
          {agent.hostname} ({primaryAddress(agent)})
        </InfoItem>
        <InfoItem label={t('agent.uptime')} testId="agent-detail-uptime">
          {uptime}
        </InfoItem>
        <InfoItem label={t('agent.lastUpdated')} testId="agent-detail-updated">
          {formatDateTime(agent.updated_at, i18n.language)}
        </InfoItem>
      </SimpleGrid>
    </Stack>
  );
}
