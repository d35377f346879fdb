import type {
  ChannelRequest,
  ChannelTestResponse,
  DeliveryStatus,
  MessageResponse,
  NotificationHistoryResponse,
  NotificationSettingsRequest,
  NotificationsResponse,
  NotificationTargetKind,
  NotificationEvent,
  TemplatePreviewRequest,
  TemplatePreviewResponse,
  TemplateRequest,
} from '@vigil/proto';
import { http } from '../../api/http';

export interface HistoryQuery {
  page: number;
  pageSize: number;
  status: DeliveryStatus | 'all';
  targetKind: NotificationTargetKind | 'all';
}

function historyParams({ page, pageSize, status, targetKind }: HistoryQuery): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (status !== 'all') params.set('status', status);
  if (targetKind !== 'all') params.set('target_kind', targetKind);
  return params.toString();
}

export const notificationsApi = {
  /** Channels (secrets masked), templates and settings in one read. */
  read: (signal?: AbortSignal) => http.get<NotificationsResponse>('/api/notifications', { signal }),
  createChannel: (body: ChannelRequest) => http.post<MessageResponse & { data: { id: number } }>('/api/notifications/channels', body),
  updateChannel: (id: number, body: ChannelRequest) => http.put<MessageResponse>(`/api/notifications/channels/${id}`, body),
  removeChannel: (id: number) => http.delete<MessageResponse>(`/api/notifications/channels/${id}`),
  /** Sends a test with the dialog's values: to the saved channel (masked secrets kept) or, unsaved, as typed. */
  testChannel: (id: number | null, body: ChannelRequest) =>
    http.post<ChannelTestResponse>(id === null ? '/api/notifications/channels/test' : `/api/notifications/channels/${id}/test`, body),
  saveSettings: (body: NotificationSettingsRequest) => http.post<MessageResponse>('/api/notifications/settings', body),
  createTemplate: (body: TemplateRequest) => http.post<MessageResponse & { data: { id: number } }>('/api/notifications/templates', body),
  updateTemplate: (id: number, body: TemplateRequest) => http.put<MessageResponse>(`/api/notifications/templates/${id}`, body),
  removeTemplate: (id: number) => http.delete<MessageResponse>(`/api/notifications/templates/${id}`),
  previewTemplate: (body: TemplatePreviewRequest) => http.post<TemplatePreviewResponse>('/api/notifications/templates/preview', body),
  /** The custom template each event uses on the channel; replaces its whole choice. */
  setChannelTemplates: (id: number, templates: Partial<Record<NotificationEvent, number>>) =>
    http.put<MessageResponse>(`/api/notifications/channels/${id}/templates`, { templates }),
  history: (query: HistoryQuery, signal?: AbortSignal) =>
    http.get<NotificationHistoryResponse>(`/api/notifications/history?${historyParams(query)}`, { signal }),
};
