import type { NotificationSettingsRequest } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { makeChannel, makeNotifications } from '../../test/notifications';
import { runLimited } from './settings';
import { useNotificationsStore } from './store';

const initial = useNotificationsStore.getState();

describe('notification settings store', () => {
  let posted: NotificationSettingsRequest[];
  let refuse: (body: NotificationSettingsRequest) => boolean;

  beforeEach(async () => {
    useNotificationsStore.setState(initial, true);
    posted = [];
    refuse = () => false;
    const data = makeNotifications({ channels: [makeChannel({ id: 1 }), makeChannel({ id: 2 })] });
    data.data.settings.specificMonitors = {
      '7': {
        enabled: true,
        onDown: true,
        onRecovery: false,
        onCertificateExpiry: false,
        onDegraded: false,
        channels: [2],
        reminderMinutes: null,
        escalation: [],
        overrideGlobal: true,
      },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        if (url === '/api/notifications') return Promise.resolve(jsonResponse(200, data));
        if (url === '/api/notifications/settings') {
          const body = JSON.parse(String(init.body)) as NotificationSettingsRequest;
          posted.push(body);
          return Promise.resolve(
            refuse(body)
              ? jsonResponse(400, { success: false, message: 'A selected notification channel does not exist' })
              : jsonResponse(200, { success: true, message: 'ok' }),
          );
        }
        return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
      }),
    );
    await useNotificationsStore.getState().load();
  });

  it('turning override on for a target also turns it on, starting from the global settings', () => {
    const store = useNotificationsStore.getState();
    store.setGlobalMonitors({ enabled: false, channels: [1] });
    useNotificationsStore.getState().setMonitorEntry(3, { overrideGlobal: true });
    expect(useNotificationsStore.getState().specificMonitors[3]).toEqual({
      enabled: true,
      onDown: true,
      onRecovery: true,
      onCertificateExpiry: true,
      onDegraded: false,
      channels: [1],
      reminderMinutes: null,
      escalation: [],
      overrideGlobal: true,
    });
  });

  it('sends reminders, escalation steps in firing order and on-degraded with the settings', async () => {
    useNotificationsStore.getState().setGlobalMonitors({
      onDegraded: true,
      reminderMinutes: 30,
      escalation: [
        { afterMinutes: 60, channels: [2] },
        { afterMinutes: 15, channels: [1] },
      ],
    });
    useNotificationsStore.getState().setAgentEntry(9, { overrideGlobal: true, reminderMinutes: 5 });

    expect((await useNotificationsStore.getState().save()).outcome).toBe('saved');
    const global = posted.find((body) => body.target_type === 'global-monitor');
    expect(global).toMatchObject({
      on_degraded: true,
      reminder_minutes: 30,
      escalation: [
        { afterMinutes: 15, channels: [1] },
        { afterMinutes: 60, channels: [2] },
      ],
    });
    expect(posted.find((body) => body.target_type === 'agent')).toMatchObject({ target_id: 9, reminder_minutes: 5, escalation: [] });
  });

  it.each([
    ['a step without a channel', { escalation: [{ afterMinutes: 10, channels: [] }] }],
    ['a step after 0 minutes', { escalation: [{ afterMinutes: 0, channels: [1] }] }],
    ['a reminder of 1.5 minutes', { reminderMinutes: 1.5 }],
  ])('sends nothing while the global monitor settings hold %s', async (_case, patch) => {
    useNotificationsStore.getState().setGlobalMonitors(patch);
    expect(await useNotificationsStore.getState().save()).toEqual({ outcome: 'invalid', invalid: 'followUp' });
    expect(posted).toEqual([]);
  });

  it('takes a deleted channel out of escalation steps, dropping a step left with none', () => {
    useNotificationsStore.getState().setGlobalAgents({
      escalation: [
        { afterMinutes: 10, channels: [1, 2] },
        { afterMinutes: 20, channels: [2] },
      ],
    });
    useNotificationsStore.getState().forgetChannel(2);
    expect(useNotificationsStore.getState().agents.escalation).toEqual([{ afterMinutes: 10, channels: [1] }]);
  });

  it('sends one call per target: the two global entries and each target changed, with channels as a JSON string', async () => {
    useNotificationsStore.getState().setMonitorEntry(7, { onRecovery: true });
    useNotificationsStore.getState().setAgentEntry(9, { overrideGlobal: true, onCpuThreshold: true, cpuThreshold: 75 });

    expect((await useNotificationsStore.getState().save()).outcome).toBe('saved');
    expect(posted.map((body) => `${body.target_type}:${body.target_id ?? ''}`).sort()).toEqual([
      'agent:9',
      'global-agent:',
      'global-monitor:',
      'monitor:7',
    ]);
    expect(posted.find((body) => body.target_type === 'monitor')).toMatchObject({
      channels: '[2]',
      on_recovery: true,
      on_certificate_expiry: false,
      override_global: true,
      enabled: true,
    });
    expect(posted.find((body) => body.target_type === 'agent')).toMatchObject({
      on_cpu_threshold: true,
      cpu_threshold: 75,
      override_global: true,
      enabled: true,
    });
    expect(useNotificationsStore.getState().dirty.monitors.size).toBe(0);
  });

  it('reports a partial failure and keeps the refused target unsaved, so the next save retries it', async () => {
    useNotificationsStore.getState().setMonitorEntry(7, { onDown: false });
    refuse = (body) => body.target_type === 'monitor';

    const result = await useNotificationsStore.getState().save();
    expect(result.outcome).toBe('partial');
    expect(useNotificationsStore.getState().dirty.monitors.has(7)).toBe(true);

    refuse = () => false;
    posted = [];
    expect((await useNotificationsStore.getState().save()).outcome).toBe('saved');
    expect(posted.some((body) => body.target_type === 'monitor' && body.target_id === 7)).toBe(true);
  });

  it('reports a full failure when every call is refused', async () => {
    refuse = () => true;
    expect((await useNotificationsStore.getState().save()).outcome).toBe('failed');
  });

  it('sends nothing while an enabled threshold is outside 0–100', async () => {
    useNotificationsStore.getState().setGlobalAgents({ onMemoryThreshold: true, memoryThreshold: 101 });
    expect((await useNotificationsStore.getState().save()).outcome).toBe('invalid');
    expect(posted).toEqual([]);
  });

  it('drops a deleted channel from every setting', () => {
    useNotificationsStore.getState().setGlobalMonitors({ channels: [1, 2] });
    useNotificationsStore.getState().forgetChannel(2);
    const state = useNotificationsStore.getState();
    expect(state.channels.map((channel) => channel.id)).toEqual([1]);
    expect(state.monitors.channels).toEqual([1]);
    expect(state.specificMonitors[7].channels).toEqual([]);
  });
});

describe('runLimited', () => {
  it('never has more than the limit in flight and keeps outcomes in order', async () => {
    let inFlight = 0;
    let most = 0;
    const tasks = Array.from({ length: 9 }, (_, index) => async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      if (index === 4) throw new Error('no');
      return index;
    });
    const results = await runLimited(tasks, 3);
    expect(most).toBe(3);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
  });
});
