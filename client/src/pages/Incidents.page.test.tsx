import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { IncidentDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { INCIDENTS_RESYNC_MS, matchesState, useIncidentsStore } from '../features/incidents/store';
import { pushHandlers } from '../realtime/handlers';
import { useRealtimeStore } from '../realtime/store';
import { incidentsPage, makeIncident } from '../test/incidents';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../test/render';
import IncidentsPage from './Incidents.page';

const initial = useIncidentsStore.getState();

describe('IncidentsPage', () => {
  let incidents: IncidentDto[];
  let fetchMock: ReturnType<typeof vi.fn>;
  const reads = () => fetchMock.mock.calls.map(([url]) => String(url));

  beforeEach(() => {
    useIncidentsStore.setState(initial, true);
    useRealtimeStore.setState({ status: 'connected' });
    signIn(MEMBER);
    incidents = [
      makeIncident({ id: 1 }),
      makeIncident({ id: 2, title: 'Slow search', impact: 'minor', published: false }),
      makeIncident({ id: 3, title: 'Old outage', status: 'resolved', resolved_at: '2025-03-01T12:00:00.000Z' }),
    ];
    fetchMock = vi.fn((url: string) => {
      const query = new URL(url, 'http://localhost').searchParams;
      const state = (query.get('state') ?? 'all') as 'active' | 'draft' | 'resolved' | 'all';
      const search = query.get('search') ?? '';
      const shown = incidents.filter((incident) => matchesState(incident, state) && incident.title.includes(search));
      return Promise.resolve(jsonResponse(200, incidentsPage(shown)));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('lists the active incidents with their impact, status and newest message', async () => {
    renderWithProviders(<IncidentsPage />);
    const card = await screen.findByTestId('incident-card-1');
    expect(card).toHaveTextContent('Checkout errors');
    expect(card).toHaveTextContent('Major');
    expect(card).toHaveTextContent('We are looking into errors at checkout.');
    expect(card).not.toHaveTextContent('**');
    expect(screen.getByTestId('incident-status-1')).toHaveTextContent('Investigating');
    expect(screen.queryByTestId('incident-card-2')).toBeNull();
    expect(reads()[0]).toBe('/api/incidents?state=active&page=1&pageSize=20');
    expect(screen.getByTestId('incidents-create')).toHaveAttribute('href', '/incidents/create');
  });

  it('shows drafts and resolved incidents on their tabs, and searches on the server', async () => {
    renderWithProviders(<IncidentsPage />);
    await screen.findByTestId('incident-card-1');
    await userEvent.click(screen.getByText('Drafts'));
    expect(await screen.findByTestId('incident-draft-2')).toHaveTextContent('Draft');
    expect(screen.queryByTestId('incident-card-1')).toBeNull();

    await userEvent.click(screen.getByText('Resolved'));
    expect(await screen.findByTestId('incident-card-3')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('incidents-search'), 'Old');
    await waitFor(() => expect(reads().at(-1)).toBe('/api/incidents?state=resolved&page=1&pageSize=20&search=Old'));
  });

  it('reads the list again when a push says an incident changed', async () => {
    renderWithProviders(<IncidentsPage />);
    await screen.findByTestId('incident-card-1');
    incidents.push(makeIncident({ id: 4, title: 'API latency' }));
    pushHandlers()['incident.changed']({ action: 'created', id: 4 });
    expect(await screen.findByTestId('incident-card-4', {}, { timeout: INCIDENTS_RESYNC_MS + 2000 })).toHaveTextContent('API latency');

    incidents.splice(0, 1);
    pushHandlers()['incident.changed']({ action: 'deleted', id: 1 });
    await waitFor(() => expect(screen.queryByTestId('incident-card-1')).toBeNull());
  });

  it('offers a viewer no new incident', async () => {
    signIn(VIEWER);
    renderWithProviders(<IncidentsPage />);
    await screen.findByTestId('incident-card-1');
    expect(screen.queryByTestId('incidents-create')).toBeNull();
  });
});
