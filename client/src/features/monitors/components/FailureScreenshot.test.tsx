import { act, screen, waitFor } from '@testing-library/react';
import type { MonitorDto } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeMonitor } from '../../../test/monitors';
import { writeToken } from '../../auth/session';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { FailureScreenshot } from './FailureScreenshot';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TAKEN = 'Wed, 25 Nov 2026 10:15:00 GMT';

/** An IntersectionObserver the test drives: `show()` tells every observer its element came into view. */
function stubIntersection() {
  const callbacks: IntersectionObserverCallback[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: IntersectionObserverCallback) {
        callbacks.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
  return () =>
    act(() => {
      for (const callback of callbacks) callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
    });
}

/** Shows the card for a monitor the test can replace, as the detail page does when a push arrives. */
let showMonitor: (monitor: MonitorDto) => void = () => undefined;
function Harness({ initial }: { initial: MonitorDto }) {
  const [monitor, setMonitor] = useState(initial);
  useEffect(() => {
    showMonitor = setMonitor;
  }, []);
  return <FailureScreenshot monitor={monitor} />;
}

describe('FailureScreenshot', () => {
  let answer: () => Response;
  let fetchMock: ReturnType<typeof vi.fn>;
  let created: number;
  const revoke = vi.fn();

  beforeEach(() => {
    writeToken('token-1');
    created = 0;
    revoke.mockReset();
    answer = () => new Response(PNG, { status: 200, headers: { 'Content-Type': 'image/png', 'Last-Modified': TAKEN } });
    fetchMock = vi.fn(() => Promise.resolve(answer()));
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:vigil/${++created}`);
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(revoke);
  });
  afterEach(() => vi.unstubAllGlobals());

  const monitor = (overrides: Partial<MonitorDto> = {}) => makeMonitor({ id: 9, type: 'browser', status: 'down', ...overrides });

  it('reads the screenshot with the session token only once its place is in view, and shows it with its time', async () => {
    const show = stubIntersection();
    renderWithProviders(<FailureScreenshot monitor={monitor()} />);
    expect(fetchMock).not.toHaveBeenCalled();

    show();
    const image = await screen.findByTestId('monitor-screenshot-image');
    expect(image).toHaveAttribute('src', 'blob:vigil/1');
    expect(screen.getByText('Last failure screenshot')).toBeInTheDocument();
    expect(screen.getByTestId('monitor-screenshot-time')).toHaveTextContent(new Date(TAKEN).toLocaleString('en-US'));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/monitors/9/screenshot');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer token-1');
  });

  it('shows nothing when the monitor has no screenshot', async () => {
    answer = () =>
      jsonResponse(404, { success: false, code: 'monitors.screenshotNotFound', message: 'This monitor has no failure screenshot' });
    renderWithProviders(<FailureScreenshot monitor={monitor()} />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    // The answer is read on later tasks; let them run before looking.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByTestId('monitor-screenshot')).not.toBeInTheDocument();
    expect(URL.createObjectURL).not.toHaveBeenCalled();
  });

  it('names a failure to read it', async () => {
    answer = () => jsonResponse(500, { success: false, message: 'Internal server error' });
    renderWithProviders(<FailureScreenshot monitor={monitor()} />);
    expect(await screen.findByTestId('monitor-screenshot-error')).toHaveTextContent('Internal server error');
  });

  it('reads it again after another failed check, and frees each picture once replaced or unmounted', async () => {
    const view = renderWithProviders(<Harness initial={monitor({ last_checked: '2026-11-25T10:15:00.000Z' })} />);
    expect(await screen.findByTestId('monitor-screenshot-image')).toHaveAttribute('src', 'blob:vigil/1');

    act(() => showMonitor(monitor({ last_checked: '2026-11-25T10:16:00.000Z' })));
    await waitFor(() => expect(screen.getByTestId('monitor-screenshot-image')).toHaveAttribute('src', 'blob:vigil/2'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(revoke).toHaveBeenCalledWith('blob:vigil/1');

    view.unmount();
    expect(revoke).toHaveBeenCalledWith('blob:vigil/2');
  });
});
