import type { SsoProvidersResponse } from '@vigil/proto';
import { http } from '../../api/http';

export const ssoApi = {
  providers: (signal?: AbortSignal) => http.get<SsoProvidersResponse>('/api/auth/sso/providers', { signal }),
  /** A browser navigation, not a fetch: the server answers with a redirect to the provider. */
  startUrl: (providerId: string) => `/api/auth/sso/${encodeURIComponent(providerId)}/start`,
};
