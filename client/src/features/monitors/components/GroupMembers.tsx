import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { MonitorLevel } from './GroupedMonitorList';

/**
 * The detail page's section of a group monitor: its members with their statuses, a page at a time (nested groups
 * open in place), read again whenever the group's own status or membership moves.
 */
export function GroupMembers({ group }: { group: MonitorDto }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" data-testid="group-members">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>{t('monitor.group.members')}</Title>
          <Text size="sm" c="dimmed">
            {t('monitor.target.members', { count: group.member_count ?? 0 })}
          </Text>
        </Group>
        <MonitorLevel parentId={group.id} depth={0} refreshKey={`${group.status}:${group.last_checked ?? ''}:${group.member_count ?? 0}`} />
      </Stack>
    </Card>
  );
}
