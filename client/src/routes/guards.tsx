import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { selectIsAdmin, selectIsAuthenticated, useAuthStore } from '../features/auth/store';
import { PATHS } from './paths';

function AuthLoading() {
  const { t } = useTranslation();
  return (
    <Center mih="50vh">
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text c="dimmed" data-testid="auth-loading">
          {t('auth.loading')}
        </Text>
      </Stack>
    </Center>
  );
}

/** Signed-in users only: visitors go to /login, remembering where they wanted to go. */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const loading = useAuthStore((state) => state.loading);
  const authenticated = useAuthStore(selectIsAuthenticated);
  const location = useLocation();
  if (loading) return <AuthLoading />;
  if (!authenticated) return <Navigate to={PATHS.login} replace state={{ from: location.pathname }} />;
  return children ?? <Outlet />;
}

/** Admins only: visitors go to /login, other signed-in users to /dashboard. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const loading = useAuthStore((state) => state.loading);
  const authenticated = useAuthStore(selectIsAuthenticated);
  const admin = useAuthStore(selectIsAdmin);
  const location = useLocation();
  if (loading) return <AuthLoading />;
  if (!authenticated) return <Navigate to={PATHS.login} replace state={{ from: location.pathname }} />;
  if (!admin) return <Navigate to={PATHS.dashboard} replace />;
  return children ?? <Outlet />;
}
