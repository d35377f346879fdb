import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { toRequest, useStatusConfigStore, validateConfig } from './configStore';

const config = {
  title: 'Acme',
  description: 'Our services',
  logoUrl: null,
  customCss: null,
  showResources: false,
  monitors: [
    { id: 1, name: 'API', selected: true },
    { id: 2, name: 'Web', selected: false },
    { id: 3, name: 'Mail' },
    { id: 0, name: 'zero', selected: true },
    { id: -4, name: 'negative', selected: true },
    { id: Number.NaN, name: 'nan', selected: true },
  ],
  agents: [
    { id: 7, name: 'db', selected: true },
    { id: 8, name: 'web-1', selected: 'yes' },
  ],
};

describe('status config store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    useStatusConfigStore.setState({
      status: 'idle',
      error: null,
      items: { monitors: [], agents: [] },
      selected: { monitors: new Set(), agents: new Set() },
    });
    fetchMock = vi.fn((_url: string, init: RequestInit) =>
      Promise.resolve(
        init.method === 'POST'
          ? jsonResponse(200, { success: true, message: 'Status page configuration saved' })
          : jsonResponse(200, { success: true, config }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
  });

  it('starts every item unselected unless the saved configuration marks it selected, and drops bad ids', async () => {
    await useStatusConfigStore.getState().load('Service Status');
    const state = useStatusConfigStore.getState();
    expect(state.items.monitors.map((item) => item.id)).toEqual([1, 2, 3]);
    expect([...state.selected.monitors]).toEqual([1]);
    expect([...state.selected.agents]).toEqual([7]);
    expect(state.form).toEqual({ title: 'Acme', description: 'Our services', logoUrl: '', customCss: '', showResources: false });
  });

  it('fills the translated title for a page never configured', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { success: true, config: { ...config, title: '' } }));
    await useStatusConfigStore.getState().load('Service Status');
    expect(useStatusConfigStore.getState().form.title).toBe('Service Status');
  });

  it('does not read again while a read is on its way', async () => {
    const sut = useStatusConfigStore.getState();
    await Promise.all([sut.load('x'), sut.load('x')]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('ignores toggles of non-positive or non-numeric ids', async () => {
    const sut = useStatusConfigStore.getState();
    await sut.load('x');
    for (const id of [0, -1, Number.NaN, 1.5]) sut.toggle('agents', id, true);
    sut.toggle('agents', 8, true);
    expect([...useStatusConfigStore.getState().selected.agents].sort()).toEqual([7, 8]);
  });

  it('sends the selected ids and the form when saving', async () => {
    const sut = useStatusConfigStore.getState();
    await sut.load('x');
    sut.toggle('monitors', 2, true);
    sut.toggle('monitors', 1, false);
    sut.setMany('agents', [7, 8, 0], true);
    sut.setField('logoUrl', ' https://example.com/logo.png ');
    expect(await sut.save()).toBe('Status page configuration saved');

    const [url, init] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(url).toBe('/api/status/config');
    expect(JSON.parse(String(init.body))).toEqual({
      title: 'Acme',
      description: 'Our services',
      logoUrl: 'https://example.com/logo.png',
      customCss: null,
      showResources: false,
      monitors: [2],
      agents: [7, 8],
    });
  });

  it('filters out bad ids that reached the selection some other way', () => {
    const body = toRequest(
      { title: 't', description: '', logoUrl: '', customCss: '', showResources: true },
      { monitors: new Set([3, 0, -2, Number.NaN]), agents: new Set() },
    );
    expect(body.monitors).toEqual([3]);
  });

  it.each([
    [{ title: '  ' }, { title: 'server.status.titleRequired' }],
    [{ title: 'x'.repeat(101) }, { title: 'server.status.titleTooLong' }],
    [{ logoUrl: 'ftp://example.com/logo.png' }, { logoUrl: 'server.status.logoUrlInvalid' }],
    [{ logoUrl: 'javascript:alert(1)' }, { logoUrl: 'server.status.logoUrlInvalid' }],
    [{ logoUrl: 'https://example.com/a.png' }, {}],
    [{ logoUrl: '/favicon.svg' }, {}],
    [{ logoUrl: 'data:image/png;base64,AAAA' }, {}],
    [{ logoUrl: 'data:text/html,<script>alert(1)</script>' }, { logoUrl: 'server.status.logoUrlInvalid' }],
    [{ customCss: 'x'.repeat(50_001) }, { customCss: 'server.status.customCssTooLong' }],
    [{ description: 'x'.repeat(1_001) }, { description: 'server.status.descriptionTooLong' }],
  ])('validates %j as %j', (patch, errors) => {
    expect(validateConfig({ title: 'Acme', description: '', logoUrl: '', customCss: '', showResources: true, ...patch })).toEqual(errors);
  });
});
