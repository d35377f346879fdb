import { Badge, Button, Group, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconPlayerPause, IconPlayerPlay, IconRefresh, IconTrash } from '@tabler/icons-react';
import { type MonitorDto, typeSpec } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LiveBadge } from '../../../components/LiveBadge/LiveBadge';
import { monitorEditPath, PATHS } from '../../../routes/paths';
import { MuteMenu } from '../../alerts/components/MuteMenu';
import { MutedBadge } from '../../alerts/components/MutedBadge';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { MonitorStatusBadge } from './MonitorStatusBadge';
import { MonitorTags } from './MonitorTags';

export type MonitorAction = 'check' | 'pause' | 'resume' | 'delete';

interface MonitorDetailHeaderProps {
  monitor: MonitorDto;
  /** The action under way, if any; all buttons wait for it. */
  busy: MonitorAction | null;
  /** True once deleted: nothing more can be done here. */
  disabled: boolean;
  onAction: (action: MonitorAction) => void;
}

/** Back link, name with status badge, and the manual check, edit, pause/resume and delete buttons (spec section 2). */
export function MonitorDetailHeader({ monitor, busy, disabled, onAction }: MonitorDetailHeaderProps) {
  const { t } = useTranslation();
  const locked = disabled || busy !== null;
  // A viewer reads only: no check, edit, pause or delete.
  const canWrite = useAuthStore(selectCanWrite);
  return (
    <>
      <Button
        component={Link}
        to={PATHS.monitors}
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        w="fit-content"
        px={0}
        data-testid="monitor-back"
      >
        {t('monitor.back')}
      </Button>
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" miw={0}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="monitor-detail-name">
            {monitor.name}
          </Title>
          <MonitorStatusBadge monitor={monitor} size="lg" testId="monitor-detail-status" />
          <MutedBadge until={monitor.muted_until} testId="monitor-detail-muted" />
          <LiveBadge />
        </Group>
        {canWrite && (
          <Group gap="xs">
            {/* A group is never checked (its status follows its members), nor a manual monitor (set by hand). */}
            {!typeSpec(monitor.type).unscheduled && (
              <Button
                variant="light"
                leftSection={<IconRefresh size={16} />}
                loading={busy === 'check'}
                disabled={locked && busy !== 'check'}
                onClick={() => onAction('check')}
                data-testid="monitor-check-now"
              >
                {t('monitor.checkNow')}
              </Button>
            )}
            <Button
              component={Link}
              to={monitorEditPath(monitor.id)}
              variant="default"
              leftSection={<IconPencil size={16} />}
              disabled={disabled}
              data-testid="monitor-edit"
            >
              {t('monitor.edit')}
            </Button>
            {monitor.active ? (
              <Button
                variant="default"
                leftSection={<IconPlayerPause size={16} />}
                loading={busy === 'pause'}
                disabled={locked && busy !== 'pause'}
                onClick={() => onAction('pause')}
                data-testid="monitor-pause"
              >
                {t('monitor.pause')}
              </Button>
            ) : (
              <Button
                variant="default"
                leftSection={<IconPlayerPlay size={16} />}
                loading={busy === 'resume'}
                disabled={locked && busy !== 'resume'}
                onClick={() => onAction('resume')}
                data-testid="monitor-resume"
              >
                {t('monitor.resume')}
              </Button>
            )}
            <MuteMenu kind="monitor" id={monitor.id} mutedUntil={monitor.muted_until} />
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              disabled={locked}
              onClick={() => onAction('delete')}
              data-testid="monitor-delete"
            >
              {t('monitor.delete')}
            </Button>
          </Group>
        )}
      </Group>
      {monitor.upside_down && (
        <Badge variant="light" color="violet" w="fit-content" data-testid="monitor-detail-upside-down">
          {t('monitor.upsideDown')}
        </Badge>
      )}
      <MonitorTags tags={monitor.tags ?? []} testId="monitor-detail-tags" />
      {monitor.description && (
        // Plain text as written (line breaks kept); never markup.
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="monitor-detail-description">
          {monitor.description}
        </Text>
      )}
    </>
  );
}
