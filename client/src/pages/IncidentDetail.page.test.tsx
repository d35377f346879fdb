import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { IncidentDto } from '@vigil/proto';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearComponentNames } from '../features/componentPicker/names';
import { useIncidentDetailStore } from '../features/incidents/store';
import { pushHandlers } from '../realtime/handlers';
import { useRealtimeStore } from '../realtime/store';
import { makeIncident, makeUpdate } from '../test/incidents';
import { makeMonitor } from '../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../test/render';
import IncidentDetailPage from './IncidentDetail.page';

const initial = useIncidentDetailStore.getState();

function renderDetail() {
  return renderWithProviders(
    <Routes>
      <Route path="/incidents/:id" element={<IncidentDetailPage />} />
      <Route path="/incidents" element={<div data-testid="incidents-list-page" />} />
    </Routes>,
    { route: '/incidents/1' },
  );
}

describe('IncidentDetailPage', () => {
  let incident: IncidentDto;
  let fetchMock: ReturnType<typeof vi.fn>;
  const calls = (method: string) =>
    fetchMock.mock.calls
      .filter(([, init]) => ((init as RequestInit).method ?? 'GET') === method)
      .map(([url, init]) => ({
        url: String(url),
        body: (init as RequestInit).body ? (JSON.parse(String((init as RequestInit).body)) as unknown) : undefined,
      }));

  beforeEach(() => {
    useIncidentDetailStore.setState(initial, true);
    useRealtimeStore.setState({ status: 'connected' });
    clearComponentNames();
    signIn(MEMBER);
    incident = makeIncident({ published: false });
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      const method = init.method ?? 'GET';
      if (url === '/api/incidents/1/updates' && method === 'POST') {
        const body = JSON.parse(String(init.body)) as { status: IncidentDto['status']; message: string };
        incident = {
          ...incident,
          status: body.status,
          updates: [
            ...incident.updates,
            makeUpdate({ id: 101, status: body.status, message: body.message, html: '<p>Fixed</p>', author: 'bob' }),
          ],
        };
        return Promise.resolve(jsonResponse(201, { success: true, incident }));
      }
      if (url === '/api/incidents/1' && method === 'PUT') {
        incident = { ...incident, ...(JSON.parse(String(init.body)) as Partial<IncidentDto>), updated_at: '2025-03-01T11:00:00.000Z' };
        return Promise.resolve(jsonResponse(200, { success: true, incident }));
      }
      if (url === '/api/incidents/1' && method === 'DELETE')
        return Promise.resolve(jsonResponse(200, { success: true, message: 'Incident deleted' }));
      if (url === '/api/incidents/1') return Promise.resolve(jsonResponse(200, { success: true, incident }));
      if (url === '/api/monitors/5')
        return Promise.resolve(jsonResponse(200, { success: true, monitor: makeMonitor({ id: 5, name: 'Checkout API' }) }));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('shows the incident, its affected components and the timeline as the server rendered it', async () => {
    renderDetail();
    expect(await screen.findByTestId('incident-detail-title')).toHaveTextContent('Checkout errors');
    expect(screen.getByTestId('incident-detail-draft')).toBeInTheDocument();
    expect(await screen.findByText('Checkout API')).toBeInTheDocument();
    const update = screen.getByTestId('incident-update-100');
    expect(within(update).getByText('errors').tagName).toBe('STRONG');
    expect(update).toHaveTextContent('alice');
  });

  it('posts an update with its status and message, and shows it first', async () => {
    renderDetail();
    await screen.findByTestId('incident-detail-title');
    await userEvent.click(screen.getByTestId('incident-update-status'));
    await userEvent.click(await screen.findByRole('option', { name: 'Resolved' }));
    await userEvent.type(screen.getByTestId('incident-update-message'), 'Fixed');
    await userEvent.click(screen.getByTestId('incident-update-post'));

    await waitFor(() =>
      expect(calls('POST')).toEqual([{ url: '/api/incidents/1/updates', body: { status: 'resolved', message: 'Fixed' } }]),
    );
    expect(await screen.findByTestId('incident-update-101')).toHaveTextContent('bob');
    const items = within(screen.getByTestId('incident-timeline')).getAllByText(/Resolved|Investigating/);
    expect(items[0]).toHaveTextContent('Resolved');
    expect(screen.getByTestId('incident-detail-status')).toHaveTextContent('Resolved');
    expect(screen.getByTestId('incident-update-message')).toHaveValue('');
  });

  it('refuses an empty update without asking the server', async () => {
    renderDetail();
    await userEvent.click(await screen.findByTestId('incident-update-post'));
    expect(await screen.findByText('Write a message')).toBeInTheDocument();
    expect(calls('POST')).toEqual([]);
  });

  it('publishes a draft, keeping its other fields', async () => {
    renderDetail();
    await userEvent.click(await screen.findByTestId('incident-publish'));
    await waitFor(() =>
      expect(calls('PUT')).toEqual([
        {
          url: '/api/incidents/1',
          body: { title: 'Checkout errors', impact: 'major', monitors: [5], agents: [], pages: ['default'], published: true },
        },
      ]),
    );
    await waitFor(() => expect(screen.queryByTestId('incident-detail-draft')).toBeNull());
    expect(screen.queryByTestId('incident-publish')).toBeNull();
  });

  it('deletes after confirming and goes back to the list', async () => {
    renderDetail();
    await userEvent.click(await screen.findByTestId('incident-delete'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    expect(await screen.findByTestId('incidents-list-page')).toBeInTheDocument();
    expect(calls('DELETE')).toEqual([{ url: '/api/incidents/1', body: undefined }]);
  });

  it('reads the incident again when a push names it', async () => {
    renderDetail();
    await screen.findByTestId('incident-detail-title');
    incident = { ...incident, title: 'Checkout errors (EU)', updated_at: '2025-03-01T10:30:00.000Z' };
    pushHandlers()['incident.changed']({ action: 'updated', id: 1 });
    await waitFor(() => expect(screen.getByTestId('incident-detail-title')).toHaveTextContent('Checkout errors (EU)'));
  });

  it('offers a viewer the timeline only', async () => {
    signIn(VIEWER);
    renderDetail();
    await screen.findByTestId('incident-timeline');
    expect(screen.queryByTestId('incident-update-form')).toBeNull();
    expect(screen.queryByTestId('incident-delete')).toBeNull();
    expect(screen.queryByTestId('incident-publish')).toBeNull();
  });
});
