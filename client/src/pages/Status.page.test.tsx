import { act, screen, within } from '@testing-library/react';
import { POLL_INTERVAL_MS } from '@vigil/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CUSTOM_CSS_ATTRIBUTE } from '../features/status/customCss';
import { useStatusPageStore } from '../features/status/pageStore';
import { useRealtimeStore } from '../realtime/store';
import { jsonResponse, renderWithProviders, signOut } from '../test/render';
import { makePublicAgent, makePublicMonitor, makeStatusData } from '../test/status';
import StatusPage from './Status.page';

describe('StatusPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let data = makeStatusData();

  beforeEach(() => {
    signOut();
    useRealtimeStore.setState({ status: 'connected' });
    useStatusPageStore.setState({ data: null, status: 'idle', error: null });
    data = makeStatusData({
      monitors: [
        makePublicMonitor({ id: 1, name: 'API', history: [{ status: 'up', timestamp: '2025-03-01T09:59:00.000Z' }] }),
        makePublicMonitor({ id: 2, name: 'Web', status: 'pending', last_checked: null }),
      ],
      agents: [makePublicAgent({ id: 4, name: 'db-1', cpu: 42.44, memory: 60, disk: 80 })],
    });
    fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, { success: true, data })));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.useRealTimers());

  it('shows the title, description, update time, overall banner, services and agents to a visitor', async () => {
    renderWithProviders(<StatusPage />, { route: '/status' });
    const services = await screen.findByTestId('status-services');
    expect(screen.getByTestId('status-title')).toHaveTextContent('Acme status');
    expect(screen.getByTestId('status-description')).toHaveTextContent('Live state of Acme services');
    expect(screen.getByTestId('status-updated')).toHaveTextContent(/Last updated .*2025/);
    expect(screen.getByTestId('status-overall')).toHaveTextContent('All systems operational');
    expect(within(services).getAllByTestId('uptime-bar')).toHaveLength(2);
    expect(within(screen.getByTestId('status-monitor-1')).getAllByTestId('uptime-bar')[0].children).toHaveLength(24);
    expect(screen.getByTestId('status-monitor-status-2')).toHaveAttribute('data-status', 'pending');
    expect(screen.getByTestId('status-monitor-2')).toHaveTextContent('Not checked yet');
    const agent = screen.getByTestId('status-agent-4');
    expect(within(agent).getByTestId('status-agent-status-4')).toHaveTextContent('Online');
    expect(agent).toHaveTextContent('host-4 · 10.0.0.4');
    expect(agent).toHaveTextContent('42.4%');
    expect(within(agent).getByTestId('status-agent-resources-4').querySelectorAll('[data-color="red"]')).toHaveLength(1);
    expect(document.title).toBe('Acme status');
    expect(fetchMock.mock.calls[0][0]).toBe('/api/status/data');
    expect((fetchMock.mock.calls[0][1] as RequestInit).headers).not.toHaveProperty('Authorization');
  });

  it("shows a service's type and certificate days, and nothing of its target", async () => {
    data = makeStatusData({
      monitors: [
        makePublicMonitor({ id: 1, name: 'Shop', type: 'http', certificate_days: 3, cert_expiry_days: [14, 7] }),
        makePublicMonitor({ id: 2, name: 'Backups', type: 'push' }),
        makePublicMonitor({ id: 3, name: 'Legacy' }),
      ],
    });
    renderWithProviders(<StatusPage />, { route: '/status' });
    await screen.findByTestId('status-services');
    expect(screen.getByTestId('status-monitor-type-1')).toHaveAttribute('data-type', 'http');
    expect(screen.getByTestId('status-monitor-certificate-1')).toHaveAttribute('data-color', 'red');
    expect(screen.getByTestId('status-monitor-certificate-1')).toHaveTextContent('Cert 3 d');
    expect(screen.getByTestId('status-monitor-type-2')).toHaveTextContent('Push');
    expect(screen.queryByTestId('status-monitor-certificate-2')).not.toBeInTheDocument();
    // A server that does not send the type yet: no badge rather than a guess.
    expect(screen.queryByTestId('status-monitor-type-3')).not.toBeInTheDocument();
  });

  it('shows the system information instead of resource bars when resource display is off', async () => {
    data = makeStatusData({
      showResources: false,
      agents: [makePublicAgent({ id: 4, cpu: null, memory: null, disk: null, os: 'Ubuntu 24.04' })],
    });
    renderWithProviders(<StatusPage />);
    const system = await screen.findByTestId('status-agent-system-4');
    expect(system).toHaveTextContent('host-4');
    expect(system).toHaveTextContent('10.0.0.4');
    expect(system).toHaveTextContent('Ubuntu 24.04');
    expect(screen.queryByTestId('status-agent-resources-4')).not.toBeInTheDocument();
  });

  it('falls back to the translated title for a page never configured, and shows the logo', async () => {
    data = makeStatusData({ title: '', logoUrl: 'https://example.com/logo.png' });
    renderWithProviders(<StatusPage />);
    expect(await screen.findByTestId('status-title')).toHaveTextContent('Service Status');
    expect(document.title).toBe('Service Status');
    expect(screen.getByTestId('status-logo')).toHaveAttribute('src', 'https://example.com/logo.png');
  });

  it('does not show a logo that is not a web address', async () => {
    data = makeStatusData({ logoUrl: 'javascript:alert(1)' });
    renderWithProviders(<StatusPage />);
    await screen.findByTestId('status-overall');
    expect(screen.queryByTestId('status-logo')).not.toBeInTheDocument();
  });

  it('follows pushed items without reading the page again', async () => {
    renderWithProviders(<StatusPage />);
    await screen.findByTestId('status-monitor-1');
    act(() =>
      useStatusPageStore.getState().applyItem({
        monitor: makePublicMonitor({ id: 1, name: 'API', status: 'down' }),
        overall: 'outage',
        updated_at: '2025-03-01T11:00:00.000Z',
      }),
    );
    expect(screen.getByTestId('status-monitor-status-1')).toHaveAttribute('data-status', 'down');
    expect(screen.getByTestId('status-overall')).toHaveAttribute('data-overall', 'outage');
    expect(screen.getByTestId('status-overall')).toHaveTextContent('Major outage');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('applies the custom CSS inside the page only while it is open, without any markup it carries', async () => {
    data = makeStatusData({ customCss: 'h1 { color: rgb(255, 0, 0) }</style><script>window.__pwned = 1</script>' });
    const { unmount } = renderWithProviders(<StatusPage />);
    await screen.findByTestId('status-overall');
    const style = document.querySelector(`style[${CUSTOM_CSS_ATTRIBUTE}]`);
    expect(style?.textContent).toContain('.vigil-status-page h1');
    expect(style?.textContent).not.toContain('<');
    expect(document.querySelectorAll('script')).toHaveLength(0);
    expect(screen.getByTestId('status-page')).toHaveClass('vigil-status-page');
    unmount();
    expect(document.querySelector(`style[${CUSTOM_CSS_ATTRIBUTE}]`)).toBeNull();
  });

  it('shows the error with a retry', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(500, { success: false, message: '' }));
    renderWithProviders(<StatusPage />);
    expect(await screen.findByTestId('error-state')).toHaveTextContent('Failed to get status page data');
    within(screen.getByTestId('error-state')).getByRole('button', { name: 'Retry' }).click();
    expect(await screen.findByTestId('status-overall')).toBeInTheDocument();
  });

  it('reads the page every 60 s only while the socket is down, aborting a read still in flight', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithProviders(<StatusPage />);
    await screen.findByTestId('status-overall');
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 2));
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const signals: AbortSignal[] = [];
    fetchMock.mockImplementation((_url: string, init: RequestInit) => {
      signals.push(init.signal as AbortSignal);
      // The first background read never answers; the next one does.
      if (signals.length === 1) return new Promise(() => undefined);
      return Promise.resolve(jsonResponse(200, { success: true, data: makeStatusData({ title: 'Polled' }) }));
    });
    act(() => useRealtimeStore.setState({ status: 'offline' }));
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(signals).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS));
    expect(signals).toHaveLength(2);
    expect(signals[0].aborted).toBe(true);
    expect(await screen.findByText('Polled')).toBeInTheDocument();
  });
});
