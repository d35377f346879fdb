import { Anchor, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import { PATHS } from '../../../routes/paths';
import { clearSession, writeToken } from '../session';
import { useAuthStore } from '../store';

/** The session token the server put in the fragment (`/login/sso#token=…`), which never reaches a server or a log. */
function tokenFromFragment(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  return token && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token) ? token : null;
}

/**
 * Where single sign-on lands: stores the token as a password sign-in does (the store restores the user from it), wipes
 * the fragment from the address bar and history, and opens the dashboard.
 */
export function SsoLanding() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [token] = useState(tokenFromFragment);
  const [failed, setFailed] = useState(token === null);

  useEffect(() => {
    window.history.replaceState(null, '', window.location.pathname);
    if (!token) return;
    clearSession();
    writeToken(token);
    void useAuthStore
      .getState()
      .init()
      .then(() => {
        if (useAuthStore.getState().user) navigate(PATHS.dashboard, { replace: true });
        else setFailed(true);
      });
  }, [navigate, token]);

  if (!failed) return <LoadingState label={t('login.sso.completing')} />;
  return (
    <Stack align="center">
      <ErrorState
        message={t('login.sso.failed')}
        action={
          <Anchor component={Link} to={PATHS.login}>
            {t('login.title')}
          </Anchor>
        }
      />
    </Stack>
  );
}
