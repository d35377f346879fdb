import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Centered spinner with a caption, for a screen whose data is still on its way. */
export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl" data-testid="loading-state">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed">{label ?? t('common.loading')}</Text>
      </Group>
    </Center>
  );
}

/** Inline red message for a failed page load, with a retry and an optional extra action (spec section 8). */
export function ErrorState({ message, onRetry, action }: { message: string; onRetry?: () => void; action?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('common.error.title')} data-testid="error-state">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message}</Text>
        <Group gap="xs">
          {onRetry && (
            <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={onRetry}>
              {t('common.retry')}
            </Button>
          )}
          {action}
        </Group>
      </Stack>
    </Alert>
  );
}
