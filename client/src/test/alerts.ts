import type { AlertDto, AlertsResponse } from '@vigil/proto';

/** An open, unacknowledged monitor alert with one sent message, with overrides. */
export function makeAlert(overrides: Partial<AlertDto> = {}): AlertDto {
  const id = overrides.id ?? 1;
  return {
    id,
    target_kind: 'monitor',
    target_id: 5,
    target_name: 'Shop API',
    metric: 'status',
    state: 'open',
    opened_at: '2025-03-01T10:00:00.000Z',
    closed_at: null,
    acknowledged_at: null,
    acknowledged_by: null,
    ack_note: null,
    escalation_step: 0,
    reminders_sent: 0,
    messages: [
      {
        id: id * 10,
        channel_id: 1,
        channel_name: 'Ops chat',
        event: 'monitor.down',
        status: 'sent',
        created_at: '2025-03-01T10:00:01.000Z',
        sent_at: '2025-03-01T10:00:02.000Z',
      },
    ],
    ...overrides,
  };
}

/** An acknowledged copy of `alert`, as the server answers an acknowledgement. */
export function acknowledged(alert: AlertDto, note: string | null = null): AlertDto {
  return {
    ...alert,
    state: 'acknowledged',
    acknowledged_at: '2025-03-01T10:05:00.000Z',
    acknowledged_by: { id: 2, username: 'bob' },
    ack_note: note,
  };
}

export function alertsPage(alerts: AlertDto[], overrides: Partial<AlertsResponse> = {}): AlertsResponse {
  return {
    success: true,
    alerts,
    total: alerts.length,
    page: 1,
    pageSize: 20,
    counts: {
      open: alerts.filter((alert) => alert.state === 'open').length,
      acknowledged: alerts.filter((alert) => alert.state === 'acknowledged').length,
    },
    ...overrides,
  };
}
