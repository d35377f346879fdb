import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PageItemEvent, StatusPageData } from '@vigil/proto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeComponent, makeGroup, makeIncident, makePageData } from './fixtures';
import { pageTexts } from './i18n';

type Handler = (...args: unknown[]) => void;

/** A stand-in for socket.io's client socket: records what the page asks of it, fires what the server would push. */
class FakeSocket {
  handlers = new Map<string, Handler>();
  emitted: unknown[][] = [];
  connected = false;
  on(event: string, handler: Handler) {
    this.handlers.set(event, handler);
    return this;
  }
  emit(...args: unknown[]) {
    this.emitted.push(args);
    return this;
  }
  connect() {
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  removeAllListeners() {
    this.handlers.clear();
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    act(() => this.handlers.get(event)?.(...args));
  }
}

const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: () => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket;
  },
}));

const { PublicApp } = await import('./components/PublicApp');
const { PageStore } = await import('./pageStore');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The API as the page calls it: each answer by path, every call recorded. */
function stubApi(answer: (path: string, init: RequestInit) => Response) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: RequestInit = {}) => {
      calls.push({ path, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined });
      return Promise.resolve(answer(path, init));
    }),
  );
  return calls;
}

function renderPage(props: { subscribed?: boolean; reload?: () => void } = {}) {
  return render(<PublicApp store={new PageStore('shop')} texts={pageTexts('en-US')} {...props} />);
}

const dataOf = (data: StatusPageData) => (path: string) =>
  path === '/api/status-pages/shop/data' ? json(200, { success: true, data }) : json(404, { success: false, message: 'Not found' });

beforeEach(() => {
  sockets.length = 0;
});
afterEach(() => {
  document.head.querySelectorAll('style').forEach((style) => style.remove());
});

describe('the public status page', () => {
  it('shows the banner, active incidents with their updates, maintenance, groups, history and footer', async () => {
    stubApi(
      dataOf(
        makePageData({
          overall: 'degraded',
          incidents: [makeIncident()],
          maintenance: [
            {
              id: 3,
              title: 'Database upgrade',
              description_html: '<p>Short read-only period</p>',
              phase: 'scheduled',
              start: '2025-03-05T22:00:00.000Z',
              end: '2025-03-05T23:00:00.000Z',
              components: [],
            },
          ],
          groups: [
            makeGroup({
              items: [
                makeComponent({ id: 1, name: 'API', status: 'degraded', response_time: 812 }),
                makeComponent({
                  type: 'agent',
                  id: 4,
                  name: 'db-1',
                  status: 'active',
                  hostname: 'db-1.internal',
                  ip_address: '10.0.0.4',
                  cpu: 42,
                  memory: 80,
                  disk: null,
                }),
              ],
              counts: { degraded: 1, active: 1 },
              status: 'degraded',
            }),
          ],
          history: [makeIncident({ id: 5, title: 'Login errors', status: 'resolved', resolved_at: '2025-03-02T10:00:00.000Z' })],
        }),
      ),
    );
    renderPage();

    expect(await screen.findByTestId('status-overall')).toHaveAttribute('data-overall', 'degraded');
    expect(screen.getByTestId('status-overall')).toHaveTextContent('Some systems are having issues');
    expect(screen.getByTestId('status-title')).toHaveTextContent('Shop status');
    expect(document.title).toBe('Shop status');
    const incident = screen.getByTestId('status-incident-7');
    expect(incident).toHaveTextContent('Slow checkout');
    expect(incident).toHaveTextContent('Affects API');
    expect(within(incident).getAllByTestId('status-incident-update-7')).toHaveLength(2);
    expect(within(incident).getByText('the cause').tagName).toBe('STRONG');
    expect(screen.getByTestId('status-maintenance-3')).toHaveTextContent('Database upgrade');
    expect(screen.getByTestId('status-maintenance-3')).toHaveTextContent('Affects every component');
    expect(screen.getByTestId('status-monitor-status-1')).toHaveAttribute('data-status', 'degraded');
    expect(screen.getByTestId('status-monitor-1')).toHaveTextContent('812 ms');
    expect(screen.getByTestId('status-monitor-1-bar')).toHaveAttribute('aria-label', 'Daily uptime, last 4 days');
    expect(screen.getByTestId('status-agent-status-4')).toHaveTextContent('Online');
    expect(screen.getByTestId('status-agent-4')).toHaveTextContent('db-1.internal · 10.0.0.4');
    expect(screen.getByTestId('status-agent-resources-4')).toHaveTextContent('42 %');
    expect(screen.getByTestId('status-group-counts-0')).toHaveTextContent('1 Degraded · 1 Online');
    expect(screen.getByTestId('status-history-5')).toHaveTextContent('Login errors');
    expect(screen.getByTestId('status-footer')).toHaveTextContent('support@example.com');
    // Not the default page: no way to the operator app.
    expect(screen.queryByTestId('login-button')).not.toBeInTheDocument();
  });

  it('shows a day of a bar with its uptime and the incidents and maintenance touching the component', async () => {
    stubApi(
      dataOf(
        makePageData({
          groups: [
            makeGroup({ items: [makeComponent({ id: 1, days: [100, 97.5] }), makeComponent({ id: 2, name: 'Web', days: [100, 100] })] }),
          ],
          marks: [
            { date: '2025-03-04', kind: 'incident', id: 7, title: 'Slow checkout', components: ['m1'] },
            { date: '2025-03-04', kind: 'maintenance', id: 3, title: 'Upgrade', components: [] },
            { date: '2025-03-03', kind: 'incident', id: 8, title: 'Older', components: ['m1'] },
          ],
        }),
      ),
    );
    renderPage();
    const bar = await screen.findByTestId('status-monitor-1-bar');
    vi.spyOn(bar, 'getBoundingClientRect').mockReturnValue({
      left: 0,
      width: 200,
      top: 0,
      height: 20,
      right: 200,
      bottom: 20,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    const user = userEvent.setup();
    await user.pointer({ target: bar, coords: { clientX: 150, clientY: 5 } });
    const tip = screen.getByTestId('status-monitor-1-bar-tip');
    expect(tip).toHaveAttribute('data-date', '2025-03-04');
    expect(tip).toHaveTextContent('97.5 % uptime');
    expect(tip).toHaveTextContent('Incident: Slow checkout');
    expect(tip).toHaveTextContent('Maintenance: Upgrade');
    expect(tip).not.toHaveTextContent('Older');

    // The other component shares the maintenance (it names no component) but not the incident.
    act(() => screen.getByTestId('status-monitor-2-bar').focus());
    const other = screen.getByTestId('status-monitor-2-bar-tip');
    expect(other).toHaveTextContent('Maintenance: Upgrade');
    expect(other).not.toHaveTextContent('Slow checkout');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('status-monitor-2-bar-tip')).toHaveAttribute('data-date', '2025-03-03');
  });

  it('reads a large group only when opened, a page at a time, and holds only the rows read', async () => {
    const total = 260;
    const calls = stubApi((path) => {
      if (path === '/api/status-pages/shop/data') {
        return json(200, {
          success: true,
          data: makePageData({
            groups: [
              makeGroup(),
              makeGroup({
                index: 1,
                name: 'Edge',
                collapsed: true,
                items: null,
                size: total,
                counts: { up: 259, down: 1 },
                status: 'degraded',
              }),
            ],
          }),
        });
      }
      const read = /\/groups\/1\?offset=(\d+)&limit=(\d+)$/.exec(path);
      if (!read) return json(404, { success: false, message: 'Not found' });
      const [offset, limit] = [Number(read[1]), Number(read[2])];
      const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, index) =>
        makeComponent({ id: 1000 + offset + index, name: `edge-${offset + index}` }),
      );
      return json(200, { success: true, items, total });
    });
    renderPage();
    const group = await screen.findByTestId('status-group-1');
    expect(group).toHaveAttribute('data-status', 'degraded');
    expect(screen.getByTestId('status-group-counts-1')).toHaveTextContent('1 Down · 259 Operational');
    expect(group.querySelectorAll('.vp-item')).toHaveLength(0);
    expect(calls.filter((call) => call.path.includes('/groups/'))).toHaveLength(0);

    const user = userEvent.setup();
    await user.click(screen.getByTestId('status-group-toggle-1'));
    await waitFor(() => expect(group.querySelectorAll('.vp-item')).toHaveLength(200));
    expect(screen.getByTestId('status-group-more-1')).toHaveTextContent('Show more (200 of 260)');
    await user.click(screen.getByTestId('status-group-more-1'));
    await waitFor(() => expect(group.querySelectorAll('.vp-item')).toHaveLength(260));
    expect(screen.queryByTestId('status-group-more-1')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.path.includes('/groups/')).map((call) => call.path)).toEqual([
      '/api/status-pages/shop/groups/1?offset=0&limit=200',
      '/api/status-pages/shop/groups/1?offset=200&limit=200',
    ]);

    // Closed and opened again: what was read stays, nothing is read twice.
    await user.click(screen.getByTestId('status-group-toggle-1'));
    expect(group.querySelectorAll('.vp-item')).toHaveLength(0);
    await user.click(screen.getByTestId('status-group-toggle-1'));
    expect(group.querySelectorAll('.vp-item')).toHaveLength(260);
    expect(calls.filter((call) => call.path.includes('/groups/'))).toHaveLength(2);
  }, 20_000);

  it('applies pushes live, reads the page again on a change notice and after a reconnect', async () => {
    const calls = stubApi(
      dataOf(
        makePageData({
          groups: [makeGroup({ items: [makeComponent({ id: 1 }), makeComponent({ id: 2, name: 'Web' })], counts: { up: 2 } })],
        }),
      ),
    );
    renderPage();
    await screen.findByTestId('status-overall');
    const socket = sockets[0];
    expect(screen.getByTestId('live-badge')).toHaveAttribute('data-connected', 'false');
    socket.fire('connect');
    expect(socket.emitted[0].slice(0, 2)).toEqual(['subscribe', 'status:shop']);
    expect(screen.getByTestId('live-badge')).toHaveAttribute('data-connected', 'true');

    const event: PageItemEvent = {
      slug: 'shop',
      component: makeComponent({ id: 2, name: 'Web', status: 'down' }),
      group: { index: 0, counts: { up: 1, down: 1 }, status: 'outage' },
      overall: 'outage',
    };
    socket.fire('status.page_item', event);
    expect(screen.getByTestId('status-monitor-status-2')).toHaveAttribute('data-status', 'down');
    expect(screen.getByTestId('status-monitor-status-1')).toHaveAttribute('data-status', 'up');
    expect(screen.getByTestId('status-overall')).toHaveAttribute('data-overall', 'outage');
    expect(screen.getByTestId('status-group-counts-0')).toHaveTextContent('1 Down · 1 Operational');
    // Another page's push changes nothing here.
    socket.fire('status.page_item', { ...event, slug: 'other', component: makeComponent({ id: 1, status: 'down' }) });
    expect(screen.getByTestId('status-monitor-status-1')).toHaveAttribute('data-status', 'up');

    const reads = () => calls.filter((call) => call.path.endsWith('/data')).length;
    expect(reads()).toBe(1);
    socket.fire('status.page_changed', { slug: 'shop' });
    socket.fire('status.page_changed', { slug: 'shop' });
    await waitFor(() => expect(reads()).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(reads()).toBe(2);

    socket.fire('disconnect', 'transport close');
    expect(screen.getByTestId('live-badge')).toHaveAttribute('data-connected', 'false');
    socket.fire('connect');
    await waitFor(() => expect(reads()).toBe(3));
    expect(socket.emitted.filter((args) => args[0] === 'subscribe')).toHaveLength(2);
  });

  it('asks for the password of a protected page, unlocks it and reloads; a wrong one is refused', async () => {
    let wrong = true;
    const calls = stubApi((path) => {
      if (path.endsWith('/data'))
        return json(401, { success: false, code: 'statusPages.locked', message: 'This status page is protected by a password' });
      if (path.endsWith('/unlock')) {
        return wrong
          ? json(401, { success: false, code: 'statusPages.passwordWrong', message: 'Wrong password for this status page' })
          : json(200, { success: true, message: 'Status page unlocked' });
      }
      return json(404, { success: false });
    });
    const reload = vi.fn();
    renderPage({ reload });
    expect(await screen.findByTestId('status-locked')).toHaveTextContent('This status page is protected');
    expect(screen.queryByTestId('status-groups')).not.toBeInTheDocument();
    // Nothing live before the page is open to this visitor.
    expect(sockets).toHaveLength(0);

    const user = userEvent.setup();
    await user.type(screen.getByTestId('status-password'), 'nope');
    await user.click(screen.getByTestId('status-unlock'));
    expect(await screen.findByTestId('status-password-error')).toHaveTextContent('The password was not accepted.');
    expect(reload).not.toHaveBeenCalled();

    wrong = false;
    await user.clear(screen.getByTestId('status-password'));
    await user.type(screen.getByTestId('status-password'), 'open sesame');
    await user.click(screen.getByTestId('status-unlock'));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(calls.filter((call) => call.path.endsWith('/unlock')).map((call) => [call.method, call.body])).toEqual([
      ['POST', { password: 'nope' }],
      ['POST', { password: 'open sesame' }],
    ]);
  });

  it('subscribes by email or webhook and answers with the server message', async () => {
    const calls = stubApi((path, init) => {
      if (path.endsWith('/data'))
        return json(200, {
          success: true,
          data: makePageData({ page: { ...makePageData().page, subscribe: { email: true, webhook: true } } }),
        });
      const body = JSON.parse(String(init.body)) as { email?: string; webhook?: string };
      return body.email
        ? json(200, { success: true, message: 'Check your inbox to confirm the subscription' })
        : json(400, { success: false, code: 'subscriptions.webhookInvalid', message: 'The webhook must be an https:// URL' });
    });
    renderPage();
    await screen.findByTestId('status-subscribe');
    const user = userEvent.setup();
    await user.type(screen.getByTestId('subscribe-email'), ' ann@example.com ');
    await user.click(screen.getByTestId('subscribe-email-submit'));
    expect(await screen.findByTestId('subscribe-email-result')).toHaveTextContent('Check your inbox to confirm the subscription');
    expect(screen.getByTestId('subscribe-email-result')).toHaveAttribute('data-ok', 'true');

    await user.type(screen.getByTestId('subscribe-webhook'), 'http://example.com/hook');
    await user.click(screen.getByTestId('subscribe-webhook-submit'));
    expect(await screen.findByTestId('subscribe-webhook-result')).toHaveTextContent('The webhook must be an https:// URL');
    expect(screen.getByTestId('subscribe-webhook-result')).toHaveAttribute('data-ok', 'false');
    expect(calls.filter((call) => call.method === 'POST').map((call) => [call.path, call.body])).toEqual([
      ['/api/status-pages/shop/subscribe', { email: 'ann@example.com' }],
      ['/api/status-pages/shop/subscribe', { webhook: 'http://example.com/hook' }],
    ]);
  });

  it('offers only the subscriptions the page allows, and confirms a subscription after its link', async () => {
    stubApi(dataOf(makePageData({ page: { ...makePageData().page, subscribe: { email: false, webhook: true } } })));
    renderPage({ subscribed: true });
    expect(await screen.findByTestId('subscribed-notice')).toHaveTextContent('Your subscription is confirmed');
    await screen.findByTestId('status-subscribe');
    expect(screen.queryByTestId('subscribe-email')).not.toBeInTheDocument();
    expect(screen.getByTestId('subscribe-webhook')).toBeInTheDocument();
  });

  it('says when the page does not exist, and offers to try again after another failure', async () => {
    stubApi(() => json(404, { success: false, code: 'statusPages.notFound', message: 'Status page not found' }));
    const { unmount } = renderPage();
    expect(await screen.findByTestId('status-error')).toHaveTextContent('There is no status page at this address.');
    unmount();
    stubApi(() => json(500, { success: false, message: 'Internal server error' }));
    renderPage();
    expect(await screen.findByTestId('status-error')).toHaveTextContent('Internal server error');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('follows the page theme and shows the sign-in link on the default page only', async () => {
    const data = makePageData({ page: { ...makePageData().page, slug: 'default', theme: 'dark' } });
    const calls = stubApi(() => json(200, { success: true, data }));
    render(<PublicApp store={new PageStore('default')} texts={pageTexts('zh-CN')} />);
    await screen.findByTestId('status-overall');
    expect(calls[0].path).toBe('/api/status-pages/default/data');
    expect(screen.getByTestId('login-button')).toHaveAttribute('href', '/login');
    expect(screen.getByTestId('login-button')).toHaveTextContent('登录');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.lang).toBe('zh-CN');
  });
});

describe('what the public page turns into markup', () => {
  it('renders every text but the server-sanitised html as text, and custom CSS only as a style element text', async () => {
    stubApi(
      dataOf(
        makePageData({
          page: {
            ...makePageData().page,
            title: '<img src=x onerror="window.__pwned=1">',
            customCss: 'h1 { color: red }</style><script>window.__pwned=1</script>',
          },
          incidents: [makeIncident({ title: '<script>window.__pwned=1</script>', components: ['<b>API</b>'] })],
          groups: [makeGroup({ name: '<i>Edge</i>', items: [makeComponent({ name: '<svg onload=alert(1)>' })] })],
        }),
      ),
    );
    renderPage();
    await screen.findByTestId('status-overall');
    const root = screen.getByTestId('status-page');
    expect(screen.getByTestId('status-title')).toHaveTextContent('<img src=x onerror="window.__pwned=1">');
    expect(root.querySelectorAll('img, script, svg, i, b')).toHaveLength(0);
    const styles = [...document.head.querySelectorAll('style[data-vigil-custom-css]')];
    expect(styles).toHaveLength(1);
    expect(styles[0].textContent).not.toContain('<');
    expect(styles[0].children).toHaveLength(0);
    expect(document.querySelectorAll('script')).toHaveLength(0);
  });

  it('sets HTML from nowhere but the html fields of incidents and maintenance', () => {
    const folder = import.meta.dirname;
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(join(dir, entry.name))
          : /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
            ? [join(dir, entry.name)]
            : [],
      );
    const sinks: string[] = [];
    const htmlProps: string[] = [];
    for (const file of sources(folder)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /dangerouslySetInnerHTML=\{\{[^}]*\}\}|\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|createContextualFragment/g,
      )) {
        sinks.push(`${file.slice(folder.length + 1)}: ${match[0]}`);
      }
      for (const match of text.matchAll(/<ServerHtml html=\{([^}]+)\}/g)) htmlProps.push(match[1]);
    }
    expect(sinks).toEqual(['components/Notices.tsx: dangerouslySetInnerHTML={{ __html: html }}']);
    expect(htmlProps.length).toBeGreaterThan(0);
    for (const value of htmlProps) expect(value).toMatch(/\.(html|description_html)$/);
  });
});
