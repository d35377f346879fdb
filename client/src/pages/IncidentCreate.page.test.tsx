import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearComponentNames } from '../features/componentPicker/names';
import { agentsPage, makeAgent } from '../test/agents';
import { makeIncident } from '../test/incidents';
import { makeMonitor, monitorsPage } from '../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import { makePageSummary } from '../test/statusPages';
import IncidentCreatePage from './IncidentCreate.page';

describe('IncidentCreatePage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const posted = () =>
    fetchMock.mock.calls
      .filter(([, init]) => (init as RequestInit).method === 'POST')
      .map(([url, init]) => [String(url), JSON.parse(String((init as RequestInit).body)) as unknown]);

  beforeEach(() => {
    signIn(MEMBER);
    clearComponentNames();
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/incidents' && init.method === 'POST') {
        return Promise.resolve(jsonResponse(201, { success: true, incident: makeIncident({ id: 9 }) }));
      }
      if (url === '/api/status-pages') {
        return Promise.resolve(
          jsonResponse(200, { success: true, pages: [makePageSummary({ slug: 'default', title: 'Status' }), makePageSummary()] }),
        );
      }
      if (url.startsWith('/api/monitors?'))
        return Promise.resolve(jsonResponse(200, monitorsPage([makeMonitor({ id: 5, name: 'Checkout API' })])));
      if (url.startsWith('/api/agents?')) return Promise.resolve(jsonResponse(200, agentsPage([makeAgent({ id: 2, name: 'db-host' })])));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  function renderCreate() {
    renderWithProviders(
      <Routes>
        <Route path="/incidents/create" element={<IncidentCreatePage />} />
        <Route path="/incidents/:id" element={<div data-testid="incident-detail-page" />} />
      </Routes>,
      { route: '/incidents/create' },
    );
  }

  it('sends the form as the create body: title, impact, status, message, components, pages, draft', async () => {
    renderCreate();
    await userEvent.type(screen.getByTestId('incident-title'), ' Checkout errors ');
    await userEvent.click(screen.getByRole('radio', { name: 'Critical' }));
    await userEvent.click(screen.getByTestId('incident-status'));
    await userEvent.click(await screen.findByRole('option', { name: 'Identified' }));
    await userEvent.type(screen.getByTestId('incident-message'), 'Payments **fail**');
    await userEvent.click(await screen.findByTestId('incident-components-search-add-monitor-5'));
    await userEvent.click(screen.getByText('Agent'));
    await userEvent.click(await screen.findByTestId('incident-components-search-add-agent-2'));
    await userEvent.click(screen.getByTestId('incident-pages'));
    await userEvent.click(await screen.findByRole('option', { name: 'Shop status (shop)' }));
    await userEvent.click(screen.getByTestId('incident-published'));
    await userEvent.click(screen.getByTestId('incident-submit'));

    expect(await screen.findByTestId('incident-detail-page')).toBeInTheDocument();
    expect(posted()).toEqual([
      [
        '/api/incidents',
        {
          title: 'Checkout errors',
          impact: 'critical',
          status: 'identified',
          message: 'Payments **fail**',
          monitors: [5],
          agents: [2],
          pages: ['default', 'shop'],
          published: false,
        },
      ],
    ]);
  }, 20_000);

  it('asks for a title and a first message before sending anything', async () => {
    renderCreate();
    await userEvent.click(screen.getByTestId('incident-submit'));
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Write a message')).toBeInTheDocument();
    await waitFor(() => expect(posted()).toEqual([]));
  });

  it('shows the server’s refusal on the form', async () => {
    fetchMock.mockImplementationOnce(() => Promise.resolve(jsonResponse(200, { success: true, pages: [] })));
    renderCreate();
    fetchMock.mockImplementation((url: string, init: RequestInit) =>
      Promise.resolve(
        url === '/api/incidents' && init.method === 'POST'
          ? jsonResponse(400, { success: false, message: 'Pages names a status page that does not exist' })
          : jsonResponse(200, monitorsPage([])),
      ),
    );
    await userEvent.type(screen.getByTestId('incident-title'), 'Outage');
    await userEvent.type(screen.getByTestId('incident-message'), 'Down');
    await userEvent.click(screen.getByTestId('incident-submit'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('Pages names a status page that does not exist');
  }, 15_000);
});
