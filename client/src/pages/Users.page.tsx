import { Button, EmptyState, Group, Pagination, Paper, Stack, Text, Title } from '@mantine/core';
import { IconUserPlus, IconUsers } from '@tabler/icons-react';
import type { UserDto } from '@vigil/proto';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { LiveBadge } from '../components/LiveBadge/LiveBadge';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { useAuthStore } from '../features/auth/store';
import { DeleteUserModal } from '../features/users/components/DeleteUserModal';
import { SettingToggle } from '../features/users/components/SettingToggle';
import { UsersTable } from '../features/users/components/UsersTable';
import { USERS_PAGE_SIZE, useUsersStore } from '../features/users/store';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { PATHS } from '../routes/paths';

export default function UsersPage() {
  const { t } = useTranslation();
  const { users, total, page, status, error, load } = useUsersStore(
    useShallow((state) => ({
      users: state.users,
      total: state.total,
      page: state.page,
      status: state.status,
      error: state.error,
      load: state.load,
    })),
  );
  const currentUserId = useAuthStore((state) => state.user?.id ?? null);
  const [pendingDelete, setPendingDelete] = useState<UserDto | null>(null);

  useEffect(() => {
    void load(1);
  }, [load]);
  usePollingFallback(useCallback(() => void load(undefined, { quiet: true }), [load]));

  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>{t('users.title')}</Title>
            <LiveBadge />
          </Group>
          <Text c="dimmed" mt={4}>
            {t('users.subtitle')}
          </Text>
        </div>
        <Button component={Link} to={PATHS.userCreate} leftSection={<IconUserPlus size={16} />} data-testid="users-create">
          {t('users.create')}
        </Button>
      </Group>

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <SettingToggle setting="allowRegistration" texts="users.registration" testId="registration-toggle" />
          <SettingToggle setting="requireTwoFactor" texts="users.twoFactorRequired" testId="require-two-factor-toggle" />
          <SettingToggle setting="passwordLoginDisabled" texts="users.passwordLogin" testId="password-login-toggle" />
        </Stack>
      </Paper>

      {status === 'error' && <ErrorState message={errorText(t, error, t('users.error.fetch'))} onRetry={() => void load()} />}
      {(status === 'loading' || status === 'idle') && <LoadingState />}
      {status === 'ready' && users.length === 0 && <EmptyState icon={<IconUsers size={28} />} variant="light" title={t('users.empty')} />}
      {status === 'ready' && users.length > 0 && (
        <Stack gap="sm">
          <UsersTable users={users} currentUserId={currentUserId} onDelete={setPendingDelete} />
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('users.total', { count: total })}
            </Text>
            {pages > 1 && <Pagination total={pages} value={page} onChange={(next) => void load(next)} size="sm" />}
          </Group>
        </Stack>
      )}

      <DeleteUserModal user={pendingDelete} onClose={() => setPendingDelete(null)} />
    </Stack>
  );
}
