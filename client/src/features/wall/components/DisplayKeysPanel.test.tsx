import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DisplayKeyDto } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, jsonResponse, renderWithProviders, signIn } from '../../../test/render';
import { DisplayKeysPanel } from './DisplayKeysPanel';

const lobby: DisplayKeyDto = { id: 1, name: 'Lobby', created_at: '2025-03-01T08:00:00.000Z', last_used_at: null };

describe('display links panel', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    signIn(ADMIN);
    fetchMock = vi.fn((_url: string, init: RequestInit) => {
      if (init.method === 'POST') {
        const { name } = JSON.parse(String(init.body)) as { name: string };
        return Promise.resolve(
          jsonResponse(201, {
            success: true,
            message: 'Display link created; copy it now, it is shown only once',
            key: { id: 2, name, created_at: '2025-03-02T08:00:00.000Z', last_used_at: null },
            secret: 'vgd_secret+/=',
          }),
        );
      }
      if (init.method === 'DELETE') return Promise.resolve(jsonResponse(200, { success: true, message: 'Display link revoked' }));
      return Promise.resolve(jsonResponse(200, { success: true, keys: [lobby] }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('lists the links and creates one, showing its address once', async () => {
    renderWithProviders(<DisplayKeysPanel />);
    expect(await screen.findByTestId('display-key-1')).toHaveTextContent('Lobby');
    expect(screen.getByTestId('display-key-1')).toHaveTextContent('Never');

    await userEvent.click(screen.getByTestId('display-key-create'));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await userEvent.type(screen.getByRole('textbox', { name: 'Screen name' }), 'NOC left');
    await userEvent.click(screen.getByTestId('display-key-create'));
    const created = await screen.findByTestId('display-key-created');
    expect(within(created).getByTestId('display-key-link')).toHaveValue(`${window.location.origin}/wall?key=vgd_secret%2B%2F%3D`);
    expect(screen.getByTestId('display-key-2')).toHaveTextContent('NOC left');
    expect(JSON.parse(String((fetchMock.mock.calls[1][1] as RequestInit).body))).toEqual({ name: 'NOC left' });

    await userEvent.click(within(created).getByRole('button', { name: 'Hide the link' }));
    expect(screen.queryByTestId('display-key-created')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue(/vgd_secret/)).not.toBeInTheDocument();
  });

  it('revokes a link only after confirmation', async () => {
    renderWithProviders(<DisplayKeysPanel />);
    await userEvent.click(await screen.findByTestId('display-key-revoke-1'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByText(/Revoke "Lobby"\?/)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('confirm-delete'));
    await vi.waitFor(() => expect(screen.queryByTestId('display-key-1')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls[1][0]).toBe('/api/wall/keys/1');
    expect((fetchMock.mock.calls[1][1] as RequestInit).method).toBe('DELETE');
  });
});
