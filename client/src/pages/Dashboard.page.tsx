import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LiveBadge } from '../components/LiveBadge/LiveBadge';
import { useAuthStore } from '../features/auth/store';
import { DashboardSections } from '../features/dashboard/components/DashboardSections';
import { PATHS } from '../routes/paths';

export default function DashboardPage() {
  const { t } = useTranslation();
  const username = useAuthStore((state) => state.user?.username ?? '');
  return (
    <Stack gap="xl">
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2} data-testid="dashboard-title">
              {t('dashboard.title')}
            </Title>
            <LiveBadge />
          </Group>
          <Text c="dimmed" mt={4}>
            {t('dashboard.welcome', { username })} · {t('dashboard.subtitle')}
          </Text>
        </div>
        <Button
          component={Link}
          to={PATHS.wall}
          variant="default"
          leftSection={<IconDeviceDesktop size={16} />}
          data-testid="dashboard-open-wall"
        >
          {t('dashboard.openWall')}
        </Button>
      </Group>
      <DashboardSections />
    </Stack>
  );
}
