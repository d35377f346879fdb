import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPIED_MS } from '../components/CopyValueButton/CopyValueButton';
import { useStatusConfigStore } from '../features/status/configStore';
import { SELECTION_PAGE_SIZE } from '../features/status/components/SelectionList';
import { ADMIN, jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../test/render';
import StatusConfigPage from './StatusConfig.page';

function makeConfig(overrides: Record<string, unknown> = {}) {
  return {
    title: 'Acme status',
    description: 'All of Acme',
    logoUrl: null,
    customCss: null,
    showResources: true,
    monitors: [
      { id: 1, name: 'API', selected: true },
      { id: 2, name: 'Web', selected: false },
      { id: 3, name: 'Mail' },
    ],
    agents: [
      { id: 5, name: 'db-1', selected: false },
      { id: 6, name: 'web-1', selected: true },
    ],
    ...overrides,
  };
}

describe('StatusConfigPage', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let config = makeConfig();
  let saveAnswer: () => Response;

  beforeEach(() => {
    signIn(MEMBER);
    useStatusConfigStore.setState({ status: 'idle', error: null });
    config = makeConfig();
    saveAnswer = () => jsonResponse(200, { success: true, message: 'Status page configuration saved' });
    fetchMock = vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/status/config' && init.method === 'POST') return Promise.resolve(saveAnswer());
      if (url === '/api/status/config') return Promise.resolve(jsonResponse(200, { success: true, config }));
      if (url === '/api/wall/keys') return Promise.resolve(jsonResponse(200, { success: true, keys: [] }));
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Not found' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.useRealTimers());

  const configReads = () =>
    fetchMock.mock.calls.filter(([url, init]) => url === '/api/status/config' && (init as RequestInit).method === 'GET');
  const saved = () => {
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/status/config' && (init as RequestInit).method === 'POST');
    return call ? JSON.parse(String((call[1] as RequestInit).body)) : null;
  };

  it('loads the configuration once, however much is edited', async () => {
    renderWithProviders(<StatusConfigPage />);
    const title = await screen.findByRole('textbox', { name: /Title/ });
    expect(title).toHaveValue('Acme status');
    await userEvent.type(title, ' now');
    await userEvent.click(screen.getByTestId('status-config-tab-services'));
    await userEvent.click(screen.getByTestId('status-config-monitors-item-2'));
    await userEvent.click(screen.getByTestId('status-config-tab-agents'));
    expect(configReads()).toHaveLength(1);
  });

  it('shows the public address with a copy button that confirms for two seconds, and a preview opening /status in a new tab', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: vi.fn(() => Promise.resolve()) } });
    renderWithProviders(<StatusConfigPage />);
    expect(await screen.findByTestId('status-config-url')).toHaveValue(`${window.location.origin}/status`);
    expect(screen.getByTestId('status-config-preview')).toHaveAttribute('href', '/status');
    expect(screen.getByTestId('status-config-preview')).toHaveAttribute('target', '_blank');
    await user.click(screen.getByTestId('status-config-copy-url'));
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith(`${window.location.origin}/status`);
    expect(screen.getByTestId('status-config-copy-url')).toHaveAttribute('data-copied', 'true');
    await act(() => vi.advanceTimersByTimeAsync(COPIED_MS));
    expect(screen.getByTestId('status-config-copy-url')).not.toHaveAttribute('data-copied');
  });

  it('starts items unselected unless saved as selected, and saves the ids ticked', async () => {
    renderWithProviders(<StatusConfigPage />);
    await userEvent.click(await screen.findByTestId('status-config-tab-services'));
    const box = (id: number) =>
      within(screen.getByTestId(`status-config-monitors-item-${id}`).closest('.mantine-Checkbox-root') as HTMLElement).getByRole(
        'checkbox',
      );
    expect([1, 2, 3].map((id) => (box(id) as HTMLInputElement).checked)).toEqual([true, false, false]);
    expect(screen.getByTestId('status-config-monitors-count')).toHaveTextContent('1 of 3 selected');
    await userEvent.click(box(3));
    await userEvent.click(box(1));
    await userEvent.click(screen.getByTestId('status-config-tab-agents'));
    await userEvent.click(screen.getByTestId('status-config-agents-all'));
    await userEvent.click(screen.getByTestId('status-config-save'));

    expect(await screen.findByText('Status page configuration saved')).toBeInTheDocument();
    expect(saved()).toMatchObject({ title: 'Acme status', monitors: [3], agents: [6, 5], showResources: true });
  });

  it('ignores non-positive and non-numeric ids from the server', async () => {
    config = makeConfig({
      monitors: [
        { id: 0, name: 'zero', selected: true },
        { id: -3, name: 'negative', selected: true },
        { id: 'x', name: 'text', selected: true },
        { id: 4, name: 'real', selected: true },
      ],
    });
    renderWithProviders(<StatusConfigPage />);
    await userEvent.click(await screen.findByTestId('status-config-tab-services'));
    expect(screen.getByTestId('status-config-monitors-count')).toHaveTextContent('1 of 1 selected');
    expect(screen.queryByText('zero')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('status-config-save'));
    await vi.waitFor(() => expect(saved()?.monitors).toEqual([4]));
  });

  it('fills the translated default title for a page never configured', async () => {
    config = makeConfig({ title: '' });
    renderWithProviders(<StatusConfigPage />);
    expect(await screen.findByRole('textbox', { name: /Title/ })).toHaveValue('Service Status');
  });

  it('shows the server message when saving fails', async () => {
    saveAnswer = () => jsonResponse(400, { success: false, message: 'Logo URL must start with http:// or https://' });
    renderWithProviders(<StatusConfigPage />);
    await userEvent.click(await screen.findByTestId('status-config-save'));
    expect(await screen.findByText('Logo URL must start with http:// or https://')).toBeInTheDocument();
  });

  it('shows a refusal of the custom CSS by the server on its field, in the appearance tab', async () => {
    saveAnswer = () => jsonResponse(400, { success: false, code: 'status.customCssImport', message: 'Custom CSS may not use @import' });
    renderWithProviders(<StatusConfigPage />);
    await userEvent.click(await screen.findByTestId('status-config-save'));
    const field = await screen.findByRole('textbox', { name: /Custom CSS/ });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Custom CSS may not use @import').length).toBeGreaterThan(1);
  });

  it('checks the title and logo before sending, and opens the tab of the refused field', async () => {
    renderWithProviders(<StatusConfigPage />);
    await userEvent.click(await screen.findByTestId('status-config-tab-appearance'));
    await userEvent.type(screen.getByRole('textbox', { name: /Logo URL/ }), 'ftp://example.com/logo.png');
    await userEvent.click(screen.getByTestId('status-config-save'));
    expect(await screen.findAllByText('Logo URL must be an http(s) address, a path on this server or a data: image')).not.toHaveLength(0);
    expect(saved()).toBeNull();

    await userEvent.clear(screen.getByRole('textbox', { name: /Logo URL/ }));
    await userEvent.click(screen.getByTestId('status-config-tab-general'));
    await userEvent.clear(screen.getByRole('textbox', { name: /Title/ }));
    await userEvent.click(screen.getByTestId('status-config-tab-agents'));
    await userEvent.click(screen.getByTestId('status-config-save'));
    expect(await screen.findByRole('textbox', { name: /Title/ })).toBeInTheDocument();
    expect(screen.getAllByText('Title is required').length).toBeGreaterThan(0);
    expect(saved()).toBeNull();
  });

  it('pages and searches 10,000 monitors, selecting the matching ones only', async () => {
    config = makeConfig({
      monitors: Array.from({ length: 10_000 }, (_, index) => ({ id: index + 1, name: `svc-${index + 1}`, selected: false })),
    });
    renderWithProviders(<StatusConfigPage />);
    await userEvent.click(await screen.findByTestId('status-config-tab-services'));
    const list = screen.getByTestId('status-config-monitors');
    expect(within(list).getAllByRole('checkbox')).toHaveLength(SELECTION_PAGE_SIZE);
    await userEvent.type(screen.getByTestId('status-config-monitors-search'), 'svc-999');
    // svc-999 and svc-9990 … svc-9999
    expect(within(list).getAllByRole('checkbox')).toHaveLength(11);
    await userEvent.click(screen.getByTestId('status-config-monitors-all'));
    expect(screen.getByTestId('status-config-monitors-count')).toHaveTextContent('11 of 10000 selected');
  });

  it('offers badge Markdown for selected monitors only', async () => {
    Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: vi.fn(() => Promise.resolve()) } });
    renderWithProviders(<StatusConfigPage />);
    await userEvent.click(await screen.findByTestId('status-config-tab-services'));
    expect(screen.queryByTestId('badge-copy-2')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('badge-copy-1'));
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith(`![API](${window.location.origin}/api/status/badge/1.svg)`);
  });

  it('shows the wall screens tab to admins only', async () => {
    const first = renderWithProviders(<StatusConfigPage />);
    await screen.findByTestId('status-config-tab-general');
    expect(screen.queryByTestId('status-config-tab-wall')).not.toBeInTheDocument();
    first.unmount();

    signIn(ADMIN);
    renderWithProviders(<StatusConfigPage />);
    await userEvent.click(await screen.findByTestId('status-config-tab-wall'));
    expect(await screen.findByTestId('display-keys')).toBeInTheDocument();
  });

  it('shows a viewer the configuration read-only, with no save, selection or wall screens', async () => {
    signIn(VIEWER);
    renderWithProviders(<StatusConfigPage />);
    const title = await screen.findByRole('textbox', { name: /Title/ });
    expect(title).toHaveValue('Acme status');
    expect(title).toHaveAttribute('readonly');
    expect(screen.getByTestId('read-only-notice')).toBeInTheDocument();
    expect(screen.queryByTestId('status-config-save')).not.toBeInTheDocument();
    expect(screen.queryByTestId('status-config-tab-wall')).not.toBeInTheDocument();
    // Reading stays: the public address, its copy button and the preview.
    expect(screen.getByTestId('status-config-copy-url')).toBeEnabled();
    expect(screen.getByTestId('status-config-preview')).toHaveAttribute('href', '/status');

    await userEvent.click(screen.getByTestId('status-config-tab-services'));
    expect(screen.getByTestId('status-config-monitors-count')).toHaveTextContent('1 of 3 selected');
    expect(screen.getByTestId('status-config-monitors-item-1')).toBeChecked();
    expect(screen.getByTestId('status-config-monitors-item-1')).toBeDisabled();
    expect(screen.queryByTestId('status-config-monitors-all')).not.toBeInTheDocument();
    expect(screen.queryByTestId('status-config-monitors-none')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('status-config-tab-appearance'));
    expect(screen.getByTestId('status-config-show-resources')).toBeDisabled();
    expect(screen.getByRole('textbox', { name: /Custom CSS/ })).toHaveAttribute('readonly');
  });

  it('offers a user the save and the selection a viewer is not offered', async () => {
    renderWithProviders(<StatusConfigPage />);
    expect(await screen.findByRole('textbox', { name: /Title/ })).not.toHaveAttribute('readonly');
    expect(screen.getByTestId('status-config-save')).toBeEnabled();
    expect(screen.queryByTestId('read-only-notice')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('status-config-tab-services'));
    expect(screen.getByTestId('status-config-monitors-item-1')).toBeEnabled();
    expect(screen.getByTestId('status-config-monitors-all')).toBeInTheDocument();
  });
});
