import type { DisplayKeyCreatedResponse, DisplayKeysResponse, MessageResponse, WallDataResponse } from '@vigil/proto';
import { http } from '../../api/http';

export const wallApi = {
  /** With a display key the call never carries the session token; without one it is a signed-in user's call. */
  data: (displayKey: string | null, signal?: AbortSignal) =>
    http.get<WallDataResponse>('/api/wall/data', displayKey === null ? { signal } : { signal, displayKey }),
  keys: (signal?: AbortSignal) => http.get<DisplayKeysResponse>('/api/wall/keys', { signal }),
  createKey: (name: string) => http.post<DisplayKeyCreatedResponse>('/api/wall/keys', { name }),
  revokeKey: (id: number) => http.delete<MessageResponse>(`/api/wall/keys/${id}`),
};

/** The link a wall screen opens: the secret travels in the query, since a screen cannot sign in. */
export function displayLink(origin: string, secret: string): string {
  return `${origin}/wall?key=${encodeURIComponent(secret)}`;
}
