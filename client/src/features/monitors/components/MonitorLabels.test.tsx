import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import MonitorsPage from '../../../pages/Monitors.page';
import { useRealtimeStore } from '../../../realtime/store';
import { makeMonitor, monitorsPage } from '../../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues, toMonitorRequest, withType } from '../form';
import { useMonitorsStore } from '../listStore';
import { MonitorDetailHeader } from './MonitorDetailHeader';
import { MonitorForm } from './MonitorForm';

describe('monitor description, tags and upside-down mode', () => {
  beforeEach(() => {
    signIn(MEMBER);
    useRealtimeStore.setState({ status: 'connected' });
  });

  function renderForm(initial = defaultFormValues()) {
    const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
    const view = renderWithProviders(<MonitorForm initial={initial} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />);
    const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
    return { onSubmit, field, unmount: view.unmount };
  }

  it('sends the description trimmed, the tags normalised and upside-down mode from the form', async () => {
    const { onSubmit, field } = renderForm();
    await userEvent.click(field('name')!);
    await userEvent.paste('Shop');
    await userEvent.click(field('url')!);
    await userEvent.paste('https://shop.example.com/health');
    await userEvent.click(field('description')!);
    await userEvent.paste('  Checkout, behind the CDN  ');
    const tags = screen.getByLabelText('Tags', { selector: 'input' });
    await userEvent.type(tags, ' env : prod {enter}critical{enter}');
    const upsideDown = field('upsideDown')!;
    expect(screen.getByText(/a failing check .* is up, and a passing one is down/)).toBeInTheDocument();
    await userEvent.click(upsideDown);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toMatchObject({
      description: 'Checkout, behind the CDN',
      tags: ['env:prod', 'critical'],
      upsideDown: true,
    });
  });

  it('offers no upside-down mode for a group, which has no check, and never sends it on', () => {
    const http = renderForm();
    expect(http.field('upsideDown')).not.toBeNull();
    http.unmount();
    const group = renderForm(withType({ ...defaultFormValues(), upsideDown: true }, 'group'));
    expect(group.field('upsideDown')).toBeNull();
    expect(toMonitorRequest(withType({ ...defaultFormValues(), name: 'G', upsideDown: true }, 'group'))).toMatchObject({
      upsideDown: false,
    });
  });

  it('shows the description as plain text, the tags as links to their list and the upside-down badge on the detail page', () => {
    const monitor = makeMonitor({
      description: '<b>not markup</b>\nsecond line',
      tags: ['env:prod', 'critical'],
      upside_down: true,
    });
    renderWithProviders(<MonitorDetailHeader monitor={monitor} busy={null} disabled={false} onAction={vi.fn()} />);
    expect(screen.getByTestId('monitor-detail-description').textContent).toBe('<b>not markup</b>\nsecond line');
    expect(screen.getByTestId('monitor-detail-description').querySelector('b')).toBeNull();
    const tags = within(screen.getByTestId('monitor-detail-tags')).getAllByRole('link');
    expect(tags.map((tag) => [tag.textContent, tag.getAttribute('href')])).toEqual([
      ['env: prod', '/monitors?tag=env%3Aprod'],
      ['critical', '/monitors?tag=critical'],
    ]);
    expect(screen.getByTestId('monitor-detail-upside-down')).toHaveTextContent('Upside down');
  });

  describe('on the list', () => {
    let fetchMock: ReturnType<typeof vi.fn>;
    const prod = makeMonitor({ id: 1, name: 'Shop', tags: ['env:prod'] });
    const staging = makeMonitor({ id: 2, name: 'Shop staging', tags: ['env:staging'] });

    beforeEach(() => {
      useMonitorsStore.setState({
        rows: [],
        total: 0,
        status: 'idle',
        error: null,
        query: { page: 1, pageSize: 50, filter: 'all', type: 'all', search: '' },
      });
      fetchMock = vi.fn((url: string) => {
        const tag = new URL(url, 'http://localhost').searchParams.get('tag');
        const shown = [prod, staging].filter((monitor) => !tag || monitor.tags.includes(tag));
        return Promise.resolve(jsonResponse(200, { ...monitorsPage(shown), total: shown.length }));
      });
      vi.stubGlobal('fetch', fetchMock);
    });
    const tagsAsked = () =>
      fetchMock.mock.calls
        .map(([url]) => String(url))
        .filter((url) => url.startsWith('/api/monitors?'))
        .map((url) => new URL(url, 'http://localhost').searchParams.get('tag'));

    it('shows each monitor’s tags as badges and reads the tag filter from the address', async () => {
      renderWithProviders(<MonitorsPage />, { route: '/monitors?tag=env%3Aprod' });
      const row = await screen.findByTestId('monitor-row-1');
      expect(screen.queryByTestId('monitor-row-2')).toBeNull();
      expect(within(row).getByRole('link', { name: 'Monitors tagged env:prod' })).toHaveAttribute('href', '/monitors?tag=env%3Aprod');
      expect(tagsAsked()).toEqual(['env:prod']);
      expect(screen.getByTestId('monitor-tag-filter')).toHaveValue('env:prod');
    });

    it('filters by the tag typed once Enter is pressed, and clears it', async () => {
      renderWithProviders(<MonitorsPage />);
      await screen.findByTestId('monitor-row-2');
      await userEvent.type(screen.getByTestId('monitor-tag-filter'), 'env:staging{enter}');
      expect(await screen.findByTestId('monitor-row-2')).toBeInTheDocument();
      await vi.waitFor(() => expect(screen.queryByTestId('monitor-row-1')).toBeNull());
      await userEvent.clear(screen.getByTestId('monitor-tag-filter'));
      await userEvent.type(screen.getByTestId('monitor-tag-filter'), '{enter}');
      expect(await screen.findByTestId('monitor-row-1')).toBeInTheDocument();
      expect(tagsAsked()).toEqual([null, 'env:staging', null]);
    });
  });
});
