import type { InstanceSettings, SettingsResponse } from '@vigil/proto';
import { http } from '../../api/http';

export const settingsApi = {
  read: () => http.get<SettingsResponse>('/api/settings'),
  update: (settings: InstanceSettings) => http.put<SettingsResponse>('/api/settings', settings),
};
