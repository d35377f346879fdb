import { Button, Group, Text, Title } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { LiveBadge } from '../LiveBadge/LiveBadge';

export interface ListPageHeaderProps {
  title: string;
  subtitle: string;
  /** The test id prefix: `<prefix>-refresh`, `<prefix>-create`. */
  testId: string;
  refresh: { label: string; loading: boolean; onClick: () => void };
  /** Left out for readers, who may not create. */
  create?: { label: string; to: string };
}

/** The head of a live list page: its title with the live badge, a refresh button and, for writers, a create link. */
export function ListPageHeader({ title, subtitle, testId, refresh, create }: ListPageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-start">
      <div>
        <Group gap="sm">
          <Title order={2}>{title}</Title>
          <LiveBadge />
        </Group>
        <Text c="dimmed" mt={4}>
          {subtitle}
        </Text>
      </div>
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          loading={refresh.loading}
          onClick={refresh.onClick}
          data-testid={`${testId}-refresh`}
        >
          {refresh.label}
        </Button>
        {create && (
          <Button component={Link} to={create.to} leftSection={<IconPlus size={16} />} data-testid={`${testId}-create`}>
            {create.label}
          </Button>
        )}
      </Group>
    </Group>
  );
}
