import { act, screen, waitFor, within } from '@testing-library/react';
import type { LocationId, MonitorDto, MonitorLocationDto, MonitorLocationsResponse } from '@vigil/proto';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pushHandlers } from '../../../realtime/handlers';
import { useRealtimeStore } from '../../../realtime/store';
import { makeMonitor } from '../../../test/monitors';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { MonitorLocationsCard } from './MonitorLocationsCard';

function location(overrides: Partial<MonitorLocationDto> & { location: LocationId }): MonitorLocationDto {
  return {
    name: 'This server',
    agent_id: null,
    status: 'up',
    response_time: 42,
    error: null,
    checked_at: '2025-03-01T10:00:00.000Z',
    uptime: 99.5,
    ...overrides,
  };
}

const answer: MonitorLocationsResponse = {
  success: true,
  quorum: 'majority',
  quorum_min: null,
  locations: [
    location({ location: 'server' }),
    location({
      location: 'agent:3',
      name: 'Frankfurt probe',
      agent_id: 3,
      status: 'down',
      response_time: null,
      error: 'connect ECONNREFUSED 10.0.0.5:443',
      uptime: 87.25,
    }),
    location({ location: 'agent:4', name: 'Oregon probe', agent_id: 4, status: 'unknown' }),
    location({
      location: 'agent:5',
      name: 'Sydney probe',
      agent_id: 5,
      status: 'pending',
      response_time: null,
      checked_at: null,
      uptime: null,
    }),
  ],
};

const monitor = makeMonitor({ id: 1, locations: ['server', 'agent:3', 'agent:4', 'agent:5'], quorum: 'majority' });
const row = (location: string) => screen.getByTestId(`monitor-location-${location}`);

describe('MonitorLocationsCard', () => {
  let reads: string[];

  beforeEach(() => {
    reads = [];
    useRealtimeStore.setState({ status: 'connected' });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        reads.push(url);
        return Promise.resolve(url === '/api/monitors/1/locations' ? jsonResponse(200, answer) : jsonResponse(404, { success: false }));
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows one row per location with its status, latency, uptime, error and the quorum rule', async () => {
    renderWithProviders(<MonitorLocationsCard monitor={monitor} />);
    expect(await screen.findByTestId('monitor-location-server')).toBeInTheDocument();
    expect(reads).toEqual(['/api/monitors/1/locations']);
    expect(screen.getByTestId('monitor-locations-rule')).toHaveTextContent('Down when more than half of the known locations fail');
    expect(within(row('server')).getByTestId('monitor-location-status')).toHaveTextContent('Up');
    expect(row('server')).toHaveTextContent('42 ms · uptime 99.50%');

    const frankfurt = row('agent:3');
    expect(within(frankfurt).getByRole('link', { name: 'Frankfurt probe' })).toHaveAttribute('href', '/agents/3');
    expect(within(frankfurt).getByTestId('monitor-location-status')).toHaveTextContent('Down');
    expect(within(frankfurt).getByTestId('monitor-location-error')).toHaveTextContent('connect ECONNREFUSED 10.0.0.5:443');
    expect(frankfurt).toHaveTextContent('- ms · uptime 87.25%');

    expect(within(row('agent:4')).getByTestId('monitor-location-status')).toHaveTextContent('Unknown');
    expect(within(row('agent:5')).getByTestId('monitor-location-status')).toHaveTextContent('Pending');
    expect(row('agent:5')).toHaveTextContent('uptime - · Not checked');
  });

  it('follows pushed results live, and a result older than the one shown changes nothing', async () => {
    renderWithProviders(<MonitorLocationsCard monitor={monitor} />);
    await screen.findByTestId('monitor-location-agent:3');
    const push = (pushed: MonitorLocationDto) => act(() => pushHandlers()['monitor.location']({ monitor_id: 1, location: pushed }));

    push(
      location({ location: 'agent:3', name: 'Frankfurt probe', agent_id: 3, response_time: 55, checked_at: '2025-03-01T10:01:00.000Z' }),
    );
    expect(row('agent:3')).toHaveAttribute('data-status', 'up');
    expect(row('agent:3')).toHaveTextContent('55 ms');
    expect(within(row('agent:3')).queryByTestId('monitor-location-error')).toBeNull();

    push(location({ location: 'agent:3', name: 'Frankfurt probe', agent_id: 3, status: 'down', checked_at: '2025-03-01T09:59:00.000Z' }));
    expect(row('agent:3')).toHaveAttribute('data-status', 'up');
    // Another monitor's result does not land here.
    act(() => pushHandlers()['monitor.location']({ monitor_id: 2, location: location({ location: 'server', status: 'down' }) }));
    expect(row('server')).toHaveAttribute('data-status', 'up');
    expect(reads).toEqual(['/api/monitors/1/locations']);
  });

  it('reads again when its locations are edited', async () => {
    let edit: (next: MonitorDto) => void = () => undefined;
    function Page() {
      const [shown, setShown] = useState(monitor);
      edit = setShown;
      return <MonitorLocationsCard monitor={shown} />;
    }
    renderWithProviders(<Page />);
    await screen.findByTestId('monitor-location-server');
    act(() => edit({ ...monitor, locations: ['server', 'agent:3'] }));
    await waitFor(() => expect(reads).toEqual(['/api/monitors/1/locations', '/api/monitors/1/locations']));
  });
});
