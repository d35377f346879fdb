import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeMonitor } from '../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../test/render';
import MonitorCreatePage from './MonitorCreate.page';
import MonitorEditPage from './MonitorEdit.page';

const field = (name: string) => document.querySelector<HTMLInputElement>(`[name="${name}"]`)!;

function renderPages(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/monitors/create" element={<MonitorCreatePage />} />
      <Route path="/monitors/edit/:id" element={<MonitorEditPage />} />
      <Route path="*" element={<div>elsewhere</div>} />
    </Routes>,
    { route },
  );
}

describe('monitor create and edit pages', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let saveAnswer: () => Response;
  const stored = makeMonitor({ id: 7, name: 'Checkout', interval: 179, timeout: 20 });

  beforeEach(() => {
    signIn(MEMBER);
    saveAnswer = () => jsonResponse(200, { success: true, monitor: stored });
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (init.method === 'POST' || init.method === 'PUT') return Promise.resolve(saveAnswer());
      if (url === '/api/monitors/7') return Promise.resolve(jsonResponse(200, { success: true, monitor: stored }));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Monitor does not exist', code: 'monitors.notFound' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const sentBody = () =>
    JSON.parse(String((fetchMock.mock.calls.find(([, init]) => (init as RequestInit).method !== 'GET')?.[1] as RequestInit).body));

  it('creates with the interval in seconds and goes to the list', async () => {
    renderPages('/monitors/create');
    await userEvent.type(field('name'), 'Shop');
    await userEvent.click(field('url'));
    await userEvent.paste('https://shop.example.com');
    await userEvent.clear(field('interval'));
    await userEvent.type(field('interval'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));

    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/monitors$/));
    expect(fetchMock.mock.calls.find(([, init]) => (init as RequestInit).method === 'POST')?.[0]).toBe('/api/monitors');
    expect(sentBody()).toMatchObject({
      name: 'Shop',
      interval: 180,
      timeout: 30,
      method: 'GET',
      expectedStatus: 200,
      headers: {},
      body: null,
    });
  });

  it("shows 'failure text: server message' when the server refuses", async () => {
    saveAnswer = () =>
      jsonResponse(400, { success: false, message: 'URL must start with http:// or https://', code: 'monitors.urlInvalid' });
    renderPages('/monitors/create');
    await userEvent.type(field('name'), 'Shop');
    await userEvent.click(field('url'));
    await userEvent.paste('https://shop.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent(
      'Failed to create monitor, please try again later: URL must start with http:// or https://',
    );
    expect(screen.getByTestId('location')).toHaveTextContent('/monitors/create');
  });

  it('edits with the name in the title, an interval that is not whole minutes in seconds, and goes to the monitor', async () => {
    renderPages('/monitors/edit/7');
    expect(await screen.findByTestId('monitor-edit-title')).toHaveTextContent('Edit monitor Checkout');
    expect(field('interval')).toHaveValue('179');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    await vi.waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/monitors\/7$/));
    expect(fetchMock.mock.calls.find(([, init]) => (init as RequestInit).method === 'PUT')?.[0]).toBe('/api/monitors/7');
    expect(sentBody()).toMatchObject({ name: 'Checkout', interval: 179, timeout: 20 });
  });

  it('uses the unknown-error text when a failed update carries no message', async () => {
    saveAnswer = () => jsonResponse(500, { success: false });
    renderPages('/monitors/edit/7');
    await userEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    expect(await screen.findByTestId('form-error')).toHaveTextContent('Failed to update monitor: Unknown error');
  });

  it('says the monitor does not exist when editing an unknown id', async () => {
    renderPages('/monitors/edit/99');
    expect(await screen.findByTestId('monitor-missing')).toHaveTextContent('Monitor does not exist');
  });
});
