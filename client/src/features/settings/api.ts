import type { SettingsResponse, UpdateSettingsRequest } from '@vigil/proto';
import { http } from '../../api/http';

export const settingsApi = {
  read: () => http.get<SettingsResponse>('/api/settings'),
  /** Changes only the settings given. */
  update: (settings: UpdateSettingsRequest) => http.put<SettingsResponse>('/api/settings', settings),
};
