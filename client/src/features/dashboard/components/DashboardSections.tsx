import { Button, Card, EmptyState, Group, SimpleGrid, Text } from '@mantine/core';
import { IconActivity, IconPlus, IconServer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../../routes/paths';

/**
 * The dashboard's monitor and agent sections. Monitors and agents arrive with later issues, so for now each section
 * is its empty state, pointing to where the first one is added.
 */
export function DashboardSections() {
  const { t } = useTranslation();
  const sections = [
    { key: 'monitors', icon: IconActivity, list: PATHS.monitors, create: PATHS.monitorCreate },
    { key: 'agents', icon: IconServer, list: PATHS.agents, create: PATHS.agentCreate },
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      {sections.map(({ key, icon: Icon, list, create }) => (
        <Card key={key} withBorder radius="md" padding="lg" data-testid={`dashboard-${key}`}>
          <Group justify="space-between" mb="md">
            <Text fw={600}>{t(`dashboard.${key}.title`)}</Text>
            <Button component={Link} to={list} variant="subtle" size="compact-sm">
              {t(`dashboard.${key}.viewAll`)}
            </Button>
          </Group>
          <EmptyState
            icon={<Icon size={28} stroke={1.5} />}
            variant="light"
            title={t(`dashboard.${key}.empty`)}
            description={t(`dashboard.${key}.emptyDescription`)}
          >
            <EmptyState.Actions>
              <Button component={Link} to={create} leftSection={<IconPlus size={16} />} variant="light">
                {t(`dashboard.${key}.add`)}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      ))}
    </SimpleGrid>
  );
}
