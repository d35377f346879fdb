import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MONITOR_TYPES, type MonitorType, SECRET_MASK } from '@vigil/proto';
import { describe, expect, it, vi } from 'vitest';
import { makeMonitor } from '../../../test/monitors';
import { renderWithProviders } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues, formValuesFromMonitor } from '../form';
import { URL_TYPES } from '../types/fields';
import { MonitorForm } from './MonitorForm';

function renderForm(initial = defaultFormValues(), editing = false) {
  const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
  const view = renderWithProviders(
    <MonitorForm initial={initial} editing={editing} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />,
  );
  const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
  return { onSubmit, field };
}

async function enter(input: HTMLInputElement | null, text: string) {
  await userEvent.clear(input!);
  await userEvent.click(input!);
  await userEvent.paste(text);
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));
const schedule = {
  interval: 60,
  timeout: 30,
  retries: 1,
  retryInterval: 20,
  assertions: [],
  dependsOn: [],
  degradedAfterMs: null,
  description: null,
  tags: [],
  upsideDown: false,
};
/** A network or database check also sends its quorum (its locations are an admin's choice: not sent by a member). */
const probe = { quorum: 'any', quorumMin: null };

describe('MonitorForm per type', () => {
  it('offers every type as a card, HTTP chosen for a new monitor', () => {
    renderForm();
    const cards = within(screen.getByRole('radiogroup')).getAllByRole('radio');
    expect(cards.map((card) => card.getAttribute('data-testid'))).toEqual(MONITOR_TYPES.map((type) => `monitor-type-${type}`));
    expect(screen.getByTestId('monitor-type-http')).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('monitor-type-tcp')).toHaveTextContent('TCP port');
  });

  it.each([
    [
      'http',
      ['url', 'method', 'expectedStatus', 'header-name-0', 'maxRedirects', 'certExpiryDays', 'ignoreTls'],
      ['hostname', 'connectionString'],
    ],
    ['tcp', ['hostname', 'port'], ['url', 'method', 'expectedStatus', 'header-name-0', 'certExpiryDays']],
    ['ping', ['hostname', 'packetCount'], ['url', 'port']],
    ['dns', ['hostname', 'dnsRecordType', 'dnsServer'], ['url', 'port']],
    ['tls', ['hostname', 'port', 'certExpiryDays', 'ignoreTls'], ['url', 'method']],
    ['push', [], ['url', 'hostname', 'port', 'method', 'connectionString']],
    ['websocket', ['url', 'message', 'certExpiryDays'], ['method', 'hostname']],
    ['grpc', ['hostname', 'port', 'grpcService', 'tls'], ['url', 'certExpiryDays']],
    ['postgres', ['connectionString', 'query'], ['url', 'hostname', 'port']],
    ['mysql', ['connectionString', 'query'], ['url', 'hostname']],
    ['redis', ['connectionString', 'query'], ['url', 'hostname']],
  ] as const)('shows the fields of %s', async (type, shown, hidden) => {
    const { field } = renderForm();
    await userEvent.click(screen.getByTestId(`monitor-type-${type}`));
    expect(screen.getByTestId('monitor-form')).toHaveAttribute('data-type', type);
    for (const name of ['name', 'interval', 'timeout', ...shown]) expect(field(name), name).not.toBeNull();
    for (const name of hidden) expect(field(name), name).toBeNull();
  });

  it.each([
    ['tcp', ['Host is required', 'Port must be a whole number from 1 to 65535']],
    ['ping', ['Host is required']],
    ['dns', ['Host is required']],
    ['grpc', ['Host is required', 'Port must be a whole number from 1 to 65535']],
    ['websocket', ['URL is required']],
    ['postgres', ['Connection string is required']],
  ] as const)('says what %s is missing and sends nothing', async (type, messages) => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId(`monitor-type-${type}`));
    await enter(field('name'), 'Target');
    await save();
    for (const message of messages) expect(screen.getByText(message)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    ['hostname', 'https://example.com/path', 'Enter a host name or IP address only, without scheme, path or port'],
    ['port', '70000', 'Port must be a whole number from 1 to 65535'],
  ])('refuses a TCP %s of %j', async (name, value, message) => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-tcp'));
    await enter(field('name'), 'DB');
    await enter(field('hostname'), 'db.internal');
    await enter(field('port'), '5432');
    await enter(field(name), value);
    await save();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends a TCP body with only its own fields', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-tcp'));
    await enter(field('name'), 'DB port');
    await enter(field('hostname'), ' db.internal ');
    await enter(field('port'), '5432');
    await save();
    expect(onSubmit).toHaveBeenCalledWith({ type: 'tcp', name: 'DB port', hostname: 'db.internal', port: 5432, ...schedule, ...probe });
  });

  it('sends a DNS body with the record type and server, and refuses a bad server', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-dns'));
    await enter(field('name'), 'Mail');
    await enter(field('hostname'), 'example.com');
    await userEvent.selectOptions(field('dnsRecordType')!, 'MX');
    await enter(field('dnsServer'), '127.0.0.1:99999');
    await save();
    expect(screen.getByText('DNS server must be host or host:port')).toBeInTheDocument();
    await enter(field('dnsServer'), '127.0.0.1:5353');
    await save();
    expect(onSubmit).toHaveBeenCalledWith({
      type: 'dns',
      name: 'Mail',
      hostname: 'example.com',
      dnsRecordType: 'MX',
      dnsServer: '127.0.0.1:5353',
      ...schedule,
      ...probe,
    });
  });

  it('sends ping with its packet count, bounded 1–10', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-ping'));
    await enter(field('name'), 'Router');
    await enter(field('hostname'), '192.0.2.1');
    await enter(field('packetCount'), '11');
    await save();
    expect(screen.getByText('Packets must be a whole number from 1 to 10')).toBeInTheDocument();
    await enter(field('packetCount'), '5');
    await save();
    expect(onSubmit).toHaveBeenCalledWith({ type: 'ping', name: 'Router', hostname: '192.0.2.1', packetCount: 5, ...schedule, ...probe });
  });

  it('starts TLS on port 443 and sends the certificate thresholds, largest first', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-tls'));
    expect(field('port')).toHaveValue('443');
    await enter(field('name'), 'Cert');
    await enter(field('hostname'), 'example.com');
    await enter(field('certExpiryDays'), '7, 21, 400');
    await save();
    expect(screen.getByText(/one to five whole numbers of days/)).toBeInTheDocument();
    await enter(field('certExpiryDays'), '7, 21,14');
    await save();
    expect(onSubmit).toHaveBeenCalledWith({
      type: 'tls',
      name: 'Cert',
      hostname: 'example.com',
      port: 443,
      ignoreTls: false,
      certExpiryDays: [21, 14, 7],
      ...schedule,
      ...probe,
    });
  });

  it('asks WebSocket for a ws:// or wss:// URL and sends its message', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-websocket'));
    await enter(field('name'), 'Feed');
    await enter(field('url'), 'https://feed.example.com');
    await save();
    expect(screen.getByText('URL must start with ws:// or wss://')).toBeInTheDocument();
    await enter(field('url'), 'wss://feed.example.com/ws');
    await enter(field('message'), '{"op":"ping"}');
    await save();
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'websocket', url: 'wss://feed.example.com/ws', message: '{"op":"ping"}', certExpiryDays: [14] }),
    );
  });

  it('shows gRPC certificate settings only over TLS', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-grpc'));
    expect(field('certExpiryDays')).toBeNull();
    await userEvent.click(field('tls')!);
    expect(field('certExpiryDays')).not.toBeNull();
    await enter(field('name'), 'API');
    await enter(field('hostname'), 'api.internal');
    await enter(field('port'), '50051');
    await enter(field('grpcService'), 'shop.Cart');
    await save();
    expect(onSubmit).toHaveBeenCalledWith({
      type: 'grpc',
      name: 'API',
      hostname: 'api.internal',
      port: 50051,
      grpcService: 'shop.Cart',
      tls: true,
      ignoreTls: false,
      certExpiryDays: [14],
      ...schedule,
      ...probe,
    });
  });

  it.each([
    ['http', 'http://intranet.local/health', false],
    ['http', 'https://shop.example.com', true],
    ['websocket', 'ws://127.0.0.1:8080/ws', false],
    ['websocket', 'wss://feed.example.com/ws', true],
  ] as const)('shows certificate settings for %s %s: %s', async (type, url, shown) => {
    const { field } = renderForm();
    await userEvent.click(screen.getByTestId(`monitor-type-${type}`));
    await enter(field('url'), url);
    expect(field('certExpiryDays') !== null).toBe(shown);
    expect(field('ignoreTls') !== null).toBe(shown);
  });

  it('sends a push monitor with no target at all', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-push'));
    expect(screen.getByTestId('monitor-push-hint')).toBeInTheDocument();
    // Checked by its pushes: the server has no test to run for it.
    expect(screen.queryByTestId('monitor-test-now')).not.toBeInTheDocument();
    await enter(field('name'), 'Nightly backup');
    await enter(field('interval'), '1440');
    await enter(field('timeout'), '10');
    await save();
    expect(onSubmit).toHaveBeenCalledWith({ ...schedule, type: 'push', name: 'Nightly backup', interval: 86_400, timeout: 10 });
  });

  it.each(['postgres', 'mysql', 'redis'] as const)('takes the %s connection string as a password field', async (type) => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId(`monitor-type-${type}`));
    expect(field('connectionString')).toHaveAttribute('type', 'password');
    await enter(field('name'), 'Store');
    await enter(field('connectionString'), `${type}://u:p@127.0.0.1/test`);
    await save();
    expect(onSubmit).toHaveBeenCalledWith({
      type,
      name: 'Store',
      connectionString: `${type}://u:p@127.0.0.1/test`,
      query: null,
      ...schedule,
      ...probe,
    });
  });

  it('shows a saved connection string as the kept mask and sends the mask back', async () => {
    const monitor = makeMonitor({
      type: 'postgres',
      url: 'postgres://db:5432',
      connection_string: `postgres://app:${SECRET_MASK}@db:5432/app`,
      query: 'SELECT count(*) FROM jobs',
    });
    const { field, onSubmit } = renderForm(formValuesFromMonitor(monitor), true);
    expect(field('connectionString')).toHaveValue(`postgres://app:${SECRET_MASK}@db:5432/app`);
    expect(screen.getByText(/saved connection string is hidden and kept/)).toBeInTheDocument();
    await save();
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({
        type: 'postgres',
        connectionString: `postgres://app:${SECRET_MASK}@db:5432/app`,
        query: 'SELECT count(*) FROM jobs',
      }),
    );
  });

  it('keeps the type of a saved monitor unless changed on purpose', async () => {
    const monitor = makeMonitor({ type: 'dns', url: 'dns://example.com?type=MX', hostname: 'example.com', dns_record_type: 'MX' });
    const { field, onSubmit } = renderForm(formValuesFromMonitor(monitor), true);
    expect(screen.getByTestId('monitor-type-current')).toHaveAttribute('data-type', 'dns');
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(field('hostname')).toHaveValue('example.com');
    expect(field('dnsRecordType')).toHaveValue('MX');
    expect(field('url')).toBeNull();

    await userEvent.click(screen.getByTestId('monitor-type-change'));
    expect(screen.getByTestId('monitor-type-warning')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('monitor-type-tcp'));
    await enter(field('port'), '25');
    await save();
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ type: 'tcp', hostname: 'example.com', port: 25 }));
  });

  it.each(MONITOR_TYPES.filter((type) => type !== 'http'))('reads a saved %s monitor back into its own fields', (type: MonitorType) => {
    const values = formValuesFromMonitor(makeMonitor({ type, url: `${type}://target`, hostname: 'h', port: 1 }));
    expect(values.type).toBe(type);
    // The read `url` of a type without one is a target string, never an editable URL.
    expect(values.url).toBe(URL_TYPES.includes(type) ? `${type}://target` : '');
  });
});
