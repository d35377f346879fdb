import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { selectCanWrite, selectIsAdmin, selectIsAuthenticated, useAuthStore } from '../features/auth/store';
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

/**
 * Signed-in users only: visitors go to /login, remembering where they wanted to go. While admins require two-factor
 * sign-in and the account has not set it up, every page leads to the profile, where the setup is.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const loading = useAuthStore((state) => state.loading);
  const authenticated = useAuthStore(selectIsAuthenticated);
  const twoFactorSetupRequired = useAuthStore((state) => state.twoFactorSetupRequired);
  const location = useLocation();
  if (loading) return <AuthLoading />;
  if (!authenticated) return <Navigate to={PATHS.login} replace state={{ from: location.pathname }} />;
  if (twoFactorSetupRequired && location.pathname !== PATHS.profile) return <Navigate to={PATHS.profile} replace />;
  return children ?? <Outlet />;
}

/** Admins only: visitors go to /login, other signed-in users to /dashboard. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const loading = useAuthStore((state) => state.loading);
  const authenticated = useAuthStore(selectIsAuthenticated);
  const admin = useAuthStore(selectIsAdmin);
  const twoFactorSetupRequired = useAuthStore((state) => state.twoFactorSetupRequired);
  const location = useLocation();
  if (loading) return <AuthLoading />;
  if (!authenticated) return <Navigate to={PATHS.login} replace state={{ from: location.pathname }} />;
  if (twoFactorSetupRequired) return <Navigate to={PATHS.profile} replace />;
  if (!admin) return <Navigate to={PATHS.dashboard} replace />;
  return children ?? <Outlet />;
}

/**
 * Screens that only change things (create and edit forms): a `viewer`, who may change nothing, is sent to the list
 * instead of a form the server would refuse to save. Sits inside RequireAuth, which settles the session first.
 */
export function RequireWrite({ fallback, children }: { fallback: string; children?: ReactNode }) {
  const canWrite = useAuthStore(selectCanWrite);
  if (!canWrite) return <Navigate to={fallback} replace />;
  return children ?? <Outlet />;
}
