import type { AuthStatusResponse } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { authApi } from './api';

export type AuthStatus = Pick<AuthStatusResponse, 'needsSetup' | 'allowRegistration'>;

/**
 * Public registration facts for the login and register pages. Null while loading or when the call failed: the pages
 * then show no hint and let the server decide on submit.
 */
export function useAuthStatus(): AuthStatus | null {
  const [status, setStatus] = useState<AuthStatus | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    authApi
      .status(controller.signal)
      .then((response) => setStatus({ needsSetup: response.needsSetup === true, allowRegistration: response.allowRegistration === true }))
      .catch(() => setStatus(null));
    return () => controller.abort();
  }, []);
  return status;
}
