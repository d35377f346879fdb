import { DEFAULT_AGENT_SETTINGS, DEFAULT_MONITOR_SETTINGS } from '../features/notifications/settings';
import { SECRET_MASK, type NotificationChannelDto, type NotificationHistoryItem, type NotificationsResponse } from '@vigil/proto';

/** A saved channel as `GET /api/notifications` lists it (secrets masked), with overrides. */
export function makeChannel(overrides: Partial<NotificationChannelDto> = {}): NotificationChannelDto {
  const id = overrides.id ?? 1;
  return {
    id,
    key: `ops-chat-${id}`,
    name: `Ops chat ${id}`,
    type: 'telegram',
    config: JSON.stringify({ botToken: SECRET_MASK, chatId: '-100123' }),
    enabled: true,
    language: 'en-US',
    group_wait_seconds: 10,
    group_interval_seconds: 60,
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

/** The notification configuration read, with nothing configured unless overridden. */
export function makeNotifications(overrides: Partial<NotificationsResponse['data']> = {}): NotificationsResponse {
  return {
    success: true,
    data: {
      channels: [],
      templates: [
        {
          id: 1,
          name: 'Monitor down',
          type: 'monitor.down',
          language: 'en-US',
          subject: '[Down] {{name}}',
          content: '{{name}} is down.',
          is_default: true,
        },
        {
          id: 2,
          name: 'Monitor recovered',
          type: 'monitor.recovery',
          language: 'en-US',
          subject: '[Recovered] {{name}}',
          content: '{{name}} is up again.',
          is_default: true,
        },
      ],
      settings: {
        monitors: DEFAULT_MONITOR_SETTINGS,
        agents: DEFAULT_AGENT_SETTINGS,
        specificMonitors: {},
        specificAgents: {},
      },
      ...overrides,
    },
  };
}

export function makeHistoryItem(overrides: Partial<NotificationHistoryItem> = {}): NotificationHistoryItem {
  return {
    id: 1,
    event: 'test',
    severity: 'info',
    subject: 'Vigil test message',
    text: 'This is a test',
    target_kind: 'test',
    target_id: null,
    target_name: 'Ops chat 1',
    monitor: null,
    channel_id: 1,
    channel_name: 'Ops chat 1',
    channel_type: 'telegram',
    status: 'sent',
    attempts: 1,
    next_attempt_at: null,
    last_error: null,
    created_at: '2025-03-01T10:00:00.000Z',
    sent_at: '2025-03-01T10:00:01.000Z',
    tries: [{ attempt: 1, ok: true, http_status: 200, detail: 'ok', duration_ms: 40, at: '2025-03-01T10:00:01.000Z' }],
    alert_id: null,
    ...overrides,
  };
}
