import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DashboardSections } from '../features/dashboard/components/DashboardSections';
import { useAuthStore } from '../features/auth/store';

export default function DashboardPage() {
  const { t } = useTranslation();
  const username = useAuthStore((state) => state.user?.username ?? '');
  return (
    <Stack gap="xl">
      <div>
        <Title order={2} data-testid="dashboard-title">
          {t('dashboard.title')}
        </Title>
        <Text c="dimmed" mt={4}>
          {t('dashboard.welcome', { username })} · {t('dashboard.subtitle')}
        </Text>
      </div>
      <DashboardSections />
    </Stack>
  );
}
