import { ActionIcon, Anchor, Badge, Button, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import type { MaintenanceDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { maintenanceEditPath } from '../../../routes/paths';
import { occurrenceSummary, PHASE_COLORS, scheduleSummary, scopeSummary } from '../format';

interface MaintenanceCardProps {
  item: MaintenanceDto;
  canWrite: boolean;
  ending: boolean;
  onEnd: (item: MaintenanceDto) => void;
  onDelete: (item: MaintenanceDto) => void;
}

/** One window: title, phase, schedule, the occurrence under way or next, what it covers; end now, edit, delete. */
export const MaintenanceCard = memo(function MaintenanceCard({ item, canWrite, ending, onEnd, onDelete }: MaintenanceCardProps) {
  const { t, i18n } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md" data-testid={`maintenance-card-${item.id}`}>
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
            {canWrite ? (
              <Anchor component={Link} to={maintenanceEditPath(item.id)} fw={600} style={{ overflowWrap: 'anywhere' }}>
                {item.title}
              </Anchor>
            ) : (
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {item.title}
              </Text>
            )}
            <Badge color={PHASE_COLORS[item.phase]} variant="light" data-testid={`maintenance-phase-${item.id}`}>
              {t(`maintenance.phases.${item.phase}`)}
            </Badge>
          </Group>
          {canWrite && (
            <Group gap={4} wrap="nowrap">
              {item.phase === 'active' && (
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconPlayerStop size={14} />}
                  loading={ending}
                  onClick={() => onEnd(item)}
                  data-testid={`maintenance-end-${item.id}`}
                >
                  {t('maintenance.endNow')}
                </Button>
              )}
              <Tooltip label={t('common.edit')}>
                <ActionIcon
                  component={Link}
                  to={maintenanceEditPath(item.id)}
                  variant="subtle"
                  aria-label={t('common.edit')}
                  data-testid={`maintenance-edit-${item.id}`}
                >
                  <IconEdit size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('common.delete')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  onClick={() => onDelete(item)}
                  aria-label={t('common.delete')}
                  data-testid={`maintenance-delete-${item.id}`}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>
        <Text size="sm" data-testid={`maintenance-occurrence-${item.id}`}>
          {occurrenceSummary(t, i18n.language, item)}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {scheduleSummary(t, i18n.language, item)}
          {' · '}
          {scopeSummary(t, item.scope)}
        </Text>
      </Stack>
    </Paper>
  );
});
