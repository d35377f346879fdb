import { Alert, Avatar, Badge, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../features/auth/store';
import { ApiKeysSection } from '../features/profile/components/ApiKeysSection';
import { BrowserNotifications } from '../features/profile/components/BrowserNotifications';
import { ChangePasswordForm } from '../features/profile/components/ChangePasswordForm';
import { ProfileInfoForm } from '../features/profile/components/ProfileInfoForm';
import { TwoFactorSection } from '../features/profile/components/TwoFactorSection';

export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const user = useAuthStore((state) => state.user);

  if (!user) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} data-testid="form-error">
        {t('profile.error.notLoggedIn')}
      </Alert>
    );
  }

  const since = new Date(user.created_at);
  return (
    <Stack gap="lg">
      <Group gap="md">
        <Avatar radius="xl" size={56} color="blue">
          {user.username.charAt(0).toUpperCase()}
        </Avatar>
        <div>
          <Group gap="xs">
            <Title order={2}>{t('profile.title')}</Title>
            <Badge variant="light" color={user.role === 'admin' ? 'grape' : 'gray'}>
              {t(`users.roles.${user.role}`)}
            </Badge>
          </Group>
          {!Number.isNaN(since.getTime()) && (
            <Text c="dimmed" size="sm">
              {t('profile.memberSince', { date: since.toLocaleDateString(i18n.language) })}
            </Text>
          )}
        </div>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {/* Keyed by id so a different signed-in user never sees the previous user's fields. */}
        <ProfileInfoForm key={`info-${user.id}`} />
        <ChangePasswordForm key={`password-${user.id}`} />
      </SimpleGrid>
      <TwoFactorSection key={`two-factor-${user.id}`} />
      <BrowserNotifications key={`web-push-${user.id}`} />
      <ApiKeysSection key={`api-keys-${user.id}`} />
    </Stack>
  );
}
