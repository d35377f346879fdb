import type { ApiKeyCreatedResponse, ApiKeysResponse, CreateApiKeyRequest, MessageResponse } from '@vigil/proto';
import { http } from '../../api/http';

/** The caller's API keys (an admin's list holds everyone's). */
export const apiKeysApi = {
  list: (signal?: AbortSignal) => http.get<ApiKeysResponse>('/api/api-keys', { signal }),
  create: (body: CreateApiKeyRequest) => http.post<ApiKeyCreatedResponse>('/api/api-keys', body),
  revoke: (id: number) => http.delete<MessageResponse>(`/api/api-keys/${id}`),
};

/** The expiries offered when creating a key, in days; null: never. */
export const EXPIRY_CHOICES = [null, 7, 30, 90, 365] as const;
