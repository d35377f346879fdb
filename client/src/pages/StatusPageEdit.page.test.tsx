import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SaveStatusPageRequest, StatusPageDto, SubscriberDto } from '@vigil/proto';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearComponentNames } from '../features/componentPicker/names';
import { agentsPage, makeAgent } from '../test/agents';
import { makeMonitor, monitorsPage } from '../test/monitors';
import { makeChannel, makeNotifications } from '../test/notifications';
import { ADMIN, jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import { makeStatusPage } from '../test/statusPages';
import StatusPageEditPage from './StatusPageEdit.page';

function renderAt(route: string) {
  renderWithProviders(
    <Routes>
      <Route path="/status-pages/new" element={<StatusPageEditPage />} />
      <Route path="/status-pages/:slug/edit" element={<StatusPageEditPage />} />
    </Routes>,
    { route },
  );
}

const subscriber = (id: number, address: string, confirmed: boolean): SubscriberDto => ({
  id,
  kind: 'email',
  address,
  confirmed,
  created_at: '2025-03-01T00:00:00.000Z',
  confirmed_at: confirmed ? '2025-03-01T01:00:00.000Z' : null,
});

describe('StatusPageEditPage', () => {
  let page: StatusPageDto;
  let subscribers: SubscriberDto[];
  let fetchMock: ReturnType<typeof vi.fn>;
  const sent = (method: string) =>
    fetchMock.mock.calls
      .filter(([, init]) => (init as RequestInit | undefined)?.method === method)
      .map(
        ([url, init]) =>
          [
            String(url),
            (init as RequestInit).body ? (JSON.parse(String((init as RequestInit).body)) as SaveStatusPageRequest) : undefined,
          ] as const,
      );

  beforeEach(() => {
    signIn(MEMBER);
    clearComponentNames();
    page = makeStatusPage();
    subscribers = [subscriber(3, 'ann@example.com', true), subscriber(4, 'ben@example.com', false)];
    fetchMock = vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (method === 'PUT' || method === 'POST') {
        const body = JSON.parse(String(init!.body)) as SaveStatusPageRequest;
        const { password, ...rest } = body;
        page = { ...page, ...rest, hasPassword: password === undefined ? page.hasPassword : password !== null } as StatusPageDto;
        return Promise.resolve(jsonResponse(200, { success: true, page }));
      }
      if (url.startsWith('/api/status-pages/shop/subscribers/') && method === 'DELETE') {
        subscribers = subscribers.filter((entry) => !url.endsWith(`/${entry.id}`));
        return Promise.resolve(jsonResponse(200, { success: true, message: 'Subscriber removed' }));
      }
      if (url.startsWith('/api/status-pages/shop/subscribers?')) {
        return Promise.resolve(jsonResponse(200, { success: true, subscribers, total: subscribers.length, page: 1, pageSize: 25 }));
      }
      if (url === `/api/status-pages/${page.slug}`) return Promise.resolve(jsonResponse(200, { success: true, page }));
      if (url === '/api/notifications') {
        return Promise.resolve(
          jsonResponse(
            200,
            makeNotifications({ channels: [makeChannel({ id: 1 }), makeChannel({ id: 4, name: 'Mail relay', type: 'smtp' })] }),
          ),
        );
      }
      const monitor = /^\/api\/monitors\/(\d+)$/.exec(url);
      if (monitor)
        return Promise.resolve(
          jsonResponse(200, { success: true, monitor: makeMonitor({ id: Number(monitor[1]), name: `svc-${monitor[1]}` }) }),
        );
      if (url === '/api/agents/1')
        return Promise.resolve(jsonResponse(200, { success: true, agent: makeAgent({ id: 1, name: 'db-host' }) }));
      if (url.startsWith('/api/monitors?')) {
        return Promise.resolve(
          jsonResponse(200, monitorsPage([makeMonitor({ id: 1, name: 'svc-1' }), makeMonitor({ id: 8, name: 'svc-8' })])),
        );
      }
      if (url.startsWith('/api/agents?')) return Promise.resolve(jsonResponse(200, agentsPage([])));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Status page not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('edits settings, sets a password, groups and orders components, and saves the whole page', async () => {
    renderAt('/status-pages/shop/edit');
    const title = await screen.findByTestId('page-title');
    await userEvent.clear(title);
    await userEvent.type(title, 'Shop (EU)');
    await userEvent.click(within(screen.getByTestId('page-theme')).getByText('Dark'));
    await userEvent.click(within(screen.getByTestId('page-password-action')).getByText('Set a new password'));
    await userEvent.type(screen.getByTestId('page-password'), 'open sesame');
    await userEvent.click(screen.getByTestId('page-email-channel'));
    expect(screen.queryByRole('option', { name: 'Ops chat 1' })).toBeNull();
    await userEvent.click(await screen.findByRole('option', { name: 'Mail relay' }));

    await userEvent.click(screen.getByTestId('status-page-tab-components'));
    expect(await screen.findByText('db-host')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('page-group-0-items-down-monitor:1'));
    await userEvent.click(screen.getByTestId('page-group-add'));
    await userEvent.click(screen.getByTestId('page-group-1-add-components'));
    // svc-1 is on the page already: offered as added.
    expect(await screen.findByTestId('page-picker-add-monitor-1')).toBeDisabled();
    await userEvent.click(screen.getByTestId('page-picker-add-monitor-8'));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByTestId('page-group-1-collapsed'));
    await userEvent.click(screen.getByTestId('status-page-save'));

    await waitFor(() => expect(sent('PUT')).toHaveLength(1));
    const [url, body] = sent('PUT')[0];
    expect(url).toBe('/api/status-pages/shop');
    expect(body).toMatchObject({
      slug: 'shop',
      title: 'Shop (EU)',
      theme: 'dark',
      password: 'open sesame',
      subscribeEmailChannelId: 4,
      groups: [
        {
          name: 'Web',
          collapsed: false,
          items: [
            { type: 'monitor', id: 2 },
            { type: 'monitor', id: 1 },
            { type: 'agent', id: 1 },
          ],
        },
        { name: 'Group 2', collapsed: true, items: [{ type: 'monitor', id: 8 }] },
      ],
    });
    // Saved: the password is set and no longer sent.
    await userEvent.click(screen.getByTestId('status-page-tab-settings'));
    expect(await screen.findByTestId('page-password-state')).toHaveTextContent('Visitors need the password');
  }, 40_000);

  it('creates a page after checking its slug with the proto’s rules, then edits it at its address', async () => {
    renderAt('/status-pages/new');
    await userEvent.type(await screen.findByTestId('page-slug'), 'api');
    await userEvent.type(screen.getByTestId('page-title'), 'Docs');
    await userEvent.click(screen.getByTestId('status-page-save'));
    expect(await screen.findByText('This address is reserved; choose another')).toBeInTheDocument();
    expect(sent('POST')).toEqual([]);

    await userEvent.clear(screen.getByTestId('page-slug'));
    await userEvent.type(screen.getByTestId('page-slug'), 'docs');
    await userEvent.click(screen.getByTestId('status-page-save'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/status-pages/docs/edit'));
    expect(sent('POST')[0]).toEqual([
      '/api/status-pages',
      expect.objectContaining({ slug: 'docs', title: 'Docs', showAgentDetails: false, groups: [], logoUrl: null, domain: null }),
    ]);
    expect(await screen.findByTestId('status-page-preview')).toHaveAttribute('href', '/status/docs');
  }, 30_000);

  it('keeps the default page at /status', async () => {
    page = makeStatusPage({ slug: 'default', title: 'Status' });
    renderAt('/status-pages/default/edit');
    expect(await screen.findByTestId('page-slug')).toBeDisabled();
    expect(screen.getByTestId('status-page-preview')).toHaveAttribute('href', '/status');
  });

  it('shows the server’s refusal of a save', async () => {
    renderAt('/status-pages/shop/edit');
    await screen.findByTestId('page-title');
    fetchMock.mockImplementationOnce(() =>
      Promise.resolve(jsonResponse(409, { success: false, message: 'This domain is used by another page' })),
    );
    await userEvent.click(screen.getByTestId('status-page-save'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('This domain is used by another page');
  });

  it('lets an admin see and remove subscribers', async () => {
    signIn(ADMIN);
    renderAt('/status-pages/shop/edit');
    await userEvent.click(await screen.findByTestId('status-page-tab-subscribers'));
    expect(await screen.findByTestId('subscriber-3')).toHaveTextContent('ann@example.com');
    expect(screen.getByTestId('subscriber-4')).toHaveTextContent('Awaiting confirmation');
    await userEvent.click(screen.getByTestId('subscriber-remove-4'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(screen.queryByTestId('subscriber-4')).toBeNull());
    expect(fetchMock).toHaveBeenCalledWith('/api/status-pages/shop/subscribers/4', expect.objectContaining({ method: 'DELETE' }));
  }, 20_000);

  it('offers subscribers to admins only', async () => {
    renderAt('/status-pages/shop/edit');
    await screen.findByTestId('page-title');
    expect(screen.queryByTestId('status-page-tab-subscribers')).toBeNull();
  });
});
