import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StatusPageSummary } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../test/render';
import { makePageSummary } from '../test/statusPages';
import StatusPagesPage from './StatusPages.page';

describe('StatusPagesPage', () => {
  let pages: StatusPageSummary[];
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    signIn(MEMBER);
    pages = [
      makePageSummary({ slug: 'default', title: 'Status', components: 10_000, subscribers: 12 }),
      makePageSummary({ slug: 'shop', title: 'Shop', domain: 'status.shop.test', hasPassword: true, components: 3 }),
    ];
    fetchMock = vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === 'DELETE') {
        pages = pages.filter((page) => `/api/status-pages/${page.slug}` !== url);
        return Promise.resolve(jsonResponse(200, { success: true, message: 'Status page deleted' }));
      }
      return Promise.resolve(jsonResponse(200, { success: true, pages }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  it('lists every page with its address, domain, protection, components and subscribers', async () => {
    renderWithProviders(<StatusPagesPage />);
    const shop = await screen.findByTestId('status-page-row-shop');
    expect(shop).toHaveTextContent('/status/shop');
    expect(shop).toHaveTextContent('status.shop.test');
    expect(screen.getByTestId('status-page-lock-shop')).toBeInTheDocument();
    expect(screen.getByTestId('status-page-row-default')).toHaveTextContent('/status');
    expect(screen.getByTestId('status-page-components-default')).toHaveTextContent('10000');
    expect(screen.getByTestId('status-page-subscribers-default')).toHaveTextContent('12');
    expect(screen.getByTestId('status-page-open-shop')).toHaveAttribute('href', '/status/shop');
    expect(screen.getByTestId('status-page-edit-shop')).toHaveAttribute('href', '/status-pages/shop/edit');
    // The default page is `/status`: it is edited, never deleted.
    expect(screen.queryByTestId('status-page-delete-default')).toBeNull();
  });

  it('deletes a page after confirming and reads the list again', async () => {
    renderWithProviders(<StatusPagesPage />);
    await userEvent.click(await screen.findByTestId('status-page-delete-shop'));
    expect(await screen.findByText(/Delete the status page “Shop”/)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('confirm-delete'));
    await waitFor(() => expect(screen.queryByTestId('status-page-row-shop')).toBeNull());
    expect(fetchMock).toHaveBeenCalledWith('/api/status-pages/shop', expect.objectContaining({ method: 'DELETE' }));
  });

  it('offers a viewer the public pages only', async () => {
    signIn(VIEWER);
    renderWithProviders(<StatusPagesPage />);
    await screen.findByTestId('status-page-row-shop');
    expect(screen.queryByTestId('status-pages-create')).toBeNull();
    expect(screen.queryByTestId('status-page-edit-shop')).toBeNull();
    expect(screen.queryByTestId('status-page-delete-shop')).toBeNull();
    expect(screen.getByTestId('status-page-open-shop')).toBeInTheDocument();
  });
});
