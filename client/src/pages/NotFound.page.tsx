import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../routes/paths';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" py={80} ta="center" data-testid="not-found">
      <Title order={1} fz={72} c="dimmed">
        {t('notFound.title')}
      </Title>
      <Title order={2}>{t('notFound.message')}</Title>
      <Text c="dimmed">{t('notFound.description')}</Text>
      <Button component={Link} to={PATHS.home} mt="sm">
        {t('notFound.backHome')}
      </Button>
    </Stack>
  );
}
