import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBellRinging, IconBrandGithub, IconGauge, IconHeartRateMonitor, IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { selectIsAuthenticated, useAuthStore } from '../features/auth/store';
import { PATHS } from '../routes/paths';

/** The project's source repository, linked for visitors. */
const SOURCE_URL = 'https://github.com/vigil-monitor/vigil';

const FEATURES = [
  { key: 'monitoring', icon: IconHeartRateMonitor, color: 'blue' },
  { key: 'dashboard', icon: IconGauge, color: 'teal' },
  { key: 'alerts', icon: IconBellRinging, color: 'orange' },
  { key: 'statusPage', icon: IconWorldWww, color: 'grape' },
] as const;

export default function HomePage() {
  const { t } = useTranslation();
  const authenticated = useAuthStore(selectIsAuthenticated);
  return (
    <Stack gap={48} py="xl">
      <Stack align="center" gap="md" ta="center" maw={720} mx="auto">
        <Title order={1} fz={{ base: 32, sm: 44 }}>
          {t('home.title')}
        </Title>
        <Text c="dimmed" size="lg">
          {t('home.subtitle')}
        </Text>
        <Group gap="md" mt="sm">
          <Button component={Link} to={authenticated ? PATHS.dashboard : PATHS.login} size="md" data-testid="get-started">
            {t('home.getStarted')}
          </Button>
          {!authenticated && (
            <Anchor href={SOURCE_URL} target="_blank" rel="noopener noreferrer">
              <Group gap={6}>
                <IconBrandGithub size={18} />
                {t('home.learnMore')}
              </Group>
            </Anchor>
          )}
        </Group>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
        {FEATURES.map(({ key, icon: Icon, color }) => (
          <Card key={key} withBorder radius="md" padding="lg">
            <ThemeIcon size={44} radius="md" variant="light" color={color}>
              <Icon size={24} stroke={1.6} />
            </ThemeIcon>
            <Text fw={600} mt="md">
              {t(`home.features.${key}.title`)}
            </Text>
            <Text size="sm" c="dimmed" mt={4}>
              {t(`home.features.${key}.description`)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
