import { screen, within } from '@testing-library/react';
import type { NotificationHistoryItem, NotificationHistoryMonitor } from '@vigil/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { makeHistoryItem } from '../../../test/notifications';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import { HistoryPanel } from './HistoryPanel';

const monitor = (fields: Partial<NotificationHistoryMonitor> & Pick<NotificationHistoryMonitor, 'type'>): NotificationHistoryMonitor => ({
  hostname: null,
  port: null,
  dns_record_type: null,
  url: '',
  ...fields,
});

const entry = (id: number, overrides: Partial<NotificationHistoryItem>) =>
  makeHistoryItem({ id, event: 'monitor.down', severity: 'alert', target_kind: 'monitor', target_id: id, ...overrides });

/** One entry of each kind of target the history shows. */
const ITEMS = [
  entry(1, {
    target_name: 'Orders DB',
    monitor: monitor({ type: 'tcp', hostname: 'db.internal', port: 5432, url: 'tcp://db.internal:5432' }),
  }),
  entry(2, { target_name: 'Mail', monitor: monitor({ type: 'dns', hostname: 'example.com', dns_record_type: 'MX' }) }),
  entry(3, { target_name: 'Backup job', monitor: monitor({ type: 'push', url: 'push://heartbeat' }) }),
  entry(4, { target_name: 'Shop', monitor: monitor({ type: 'http', url: 'https://shop.example.com/health' }) }),
  entry(5, { target_name: 'Cache', monitor: monitor({ type: 'redis', hostname: 'cache', port: 6379, url: 'redis://cache:6379' }) }),
  entry(6, { target_name: 'Deleted since', monitor: null }),
  makeHistoryItem({ id: 7, event: 'agent.offline', target_kind: 'agent', target_id: 2, target_name: 'web-1' }),
];

describe('HistoryPanel', () => {
  beforeEach(() => {
    signIn(MEMBER);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(200, { success: true, items: ITEMS, total: ITEMS.length, page: 1, pageSize: 20 }))),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([
    [1, 'TCP', 'db.internal:5432'],
    [2, 'DNS', 'example.com MX'],
    [3, 'Push', 'Heartbeat (push)'],
    [4, 'HTTP', 'https://shop.example.com/health'],
    [5, 'Redis', 'cache:6379'],
  ])('shows entry %i’s monitor type and target as the monitor list does', async (id, type, target) => {
    renderWithProviders(<HistoryPanel />);
    const row = await screen.findByTestId(`history-row-${id}`);
    expect(within(row).getByTestId(`history-monitor-type-${id}`)).toHaveTextContent(type);
    expect(within(row).getByTestId(`history-monitor-target-${id}`)).toHaveTextContent(target);
    // The status stays in the row beside it.
    expect(within(row).getByText('Sent')).toBeInTheDocument();
  });

  it('shows only the name for agents and for monitors deleted since', async () => {
    renderWithProviders(<HistoryPanel />);
    for (const [id, label] of [
      [6, 'Monitor · Deleted since'],
      [7, 'Agent · web-1'],
    ] as const) {
      const row = await screen.findByTestId(`history-row-${id}`);
      expect(within(row).getByText(label)).toBeInTheDocument();
      expect(within(row).queryByTestId(`history-monitor-type-${id}`)).toBeNull();
      expect(within(row).queryByTestId(`history-monitor-target-${id}`)).toBeNull();
    }
  });

  it('speaks Chinese', async () => {
    renderWithProviders(<HistoryPanel />);
    await i18n.changeLanguage('zh-CN');
    const row = await screen.findByTestId('history-row-3');
    expect(within(row).getByTestId('history-monitor-type-3')).toHaveTextContent('推送');
    expect(within(row).getByTestId('history-monitor-target-3')).toHaveTextContent('心跳（推送）');
    expect(within(row).getByText('已发送')).toBeInTheDocument();
    expect(within(await screen.findByTestId('history-row-1')).getByText('监控 · Orders DB')).toBeInTheDocument();
    await i18n.changeLanguage('en-US');
  });
});
