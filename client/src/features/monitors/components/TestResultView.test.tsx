import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MonitorTestResponse } from '@vigil/proto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues } from '../form';
import { MonitorForm } from './MonitorForm';

const downResult: MonitorTestResponse = {
  success: true,
  result: {
    ok: false,
    status_code: 200,
    response_time: 41.6,
    error: '$.status eq "ok" failed: got "degraded"',
    checked_at: '2026-11-24T03:00:00.000Z',
    certificate: { subject: 'CN=api.example.com', issuer: 'CN=Test CA', expires_at: '2026-11-29T03:00:00.000Z', days_remaining: 5 },
    assertions: [
      { assertion: { source: 'responseTime', operator: 'lt', value: 300 }, ok: true, actual: '42', error: null },
      {
        assertion: { source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' },
        ok: false,
        actual: '"degraded"',
        error: '$.status eq "ok" failed: got "degraded"',
      },
      { assertion: { source: 'header', path: 'X-Version', operator: 'exists' }, ok: false, actual: null, error: 'X-Version exists failed' },
    ],
  },
};

describe('test now', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let answer: () => Response;

  beforeEach(() => {
    answer = () => jsonResponse(200, downResult);
    fetchMock = vi.fn(() => Promise.resolve(answer()));
    vi.stubGlobal('fetch', fetchMock);
  });

  const testCalls = () => (fetchMock.mock.calls as Array<[string, RequestInit]>).filter(([, init]) => init.method === 'POST');

  function renderForm() {
    const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
    const view = renderWithProviders(
      <MonitorForm initial={defaultFormValues()} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />,
    );
    const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
    return { onSubmit, field };
  }

  async function enter(input: HTMLInputElement | null, text: string) {
    await userEvent.clear(input!);
    await userEvent.click(input!);
    await userEvent.paste(text);
  }

  it('posts the unsaved body to /api/monitors/test and saves nothing', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-tcp'));
    await enter(field('name'), 'DB port');
    await enter(field('hostname'), '127.0.0.1');
    await enter(field('port'), '5432');
    await userEvent.click(screen.getByTestId('assertion-add'));
    await enter(field('assertion-value-0'), '500');
    await userEvent.click(screen.getByTestId('monitor-test-now'));

    await screen.findByTestId('monitor-test-result');
    // The form also reads the floor of intervals and the groups to join; only the test call is a POST.
    const posts = testCalls();
    expect(posts).toHaveLength(1);
    const [url, init] = posts[0];
    expect(url).toBe('/api/monitors/test');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({
      type: 'tcp',
      name: 'DB port',
      hostname: '127.0.0.1',
      port: 5432,
      interval: 60,
      timeout: 30,
      retries: 1,
      retryInterval: 20,
      assertions: [{ source: 'responseTime', operator: 'lt', value: 500 }],
      dependsOn: [],
      degradedAfterMs: null,
      description: null,
      tags: [],
      upsideDown: false,
    });
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('tests nothing while a field is invalid', async () => {
    renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-dns'));
    await userEvent.click(screen.getByTestId('monitor-test-now'));
    expect(screen.getByText('Host is required')).toBeInTheDocument();
    expect(testCalls()).toHaveLength(0);
  });

  it('shows down, the time, the error, the certificate and each assertion with the value seen', async () => {
    const { field } = renderForm();
    await enter(field('name'), 'API');
    await enter(field('url'), 'https://api.example.com/health');
    await enter(field('certExpiryDays'), '21, 7');
    await userEvent.click(screen.getByTestId('monitor-test-now'));

    const result = await screen.findByTestId('monitor-test-result');
    expect(result).toHaveAttribute('data-ok', 'false');
    expect(screen.getByTestId('monitor-test-status')).toHaveTextContent('Down');
    expect(screen.getByTestId('monitor-test-time')).toHaveTextContent('42 ms');
    expect(screen.getByTestId('monitor-test-error')).toHaveTextContent('$.status eq "ok" failed: got "degraded"');
    expect(screen.getByTestId('monitor-test-certificate')).toHaveTextContent('Cert 5 d');
    expect(screen.getByTestId('monitor-test-certificate')).toHaveTextContent('CN=api.example.com, issued by CN=Test CA');
    // 5 days is below the smallest threshold (7): red.
    expect(screen.getByTestId('monitor-test-certificate').querySelector('[data-color]')).toHaveAttribute('data-color', 'red');

    const [first, second, third] = [0, 1, 2].map((index) => screen.getByTestId(`monitor-test-assertion-${index}`));
    expect(first).toHaveAttribute('data-ok', 'true');
    expect(first).toHaveTextContent('Passed');
    expect(first).toHaveTextContent('Response time (ms) less than 300');
    expect(first).toHaveTextContent('Seen: 42');
    expect(second).toHaveAttribute('data-ok', 'false');
    expect(second).toHaveTextContent('Failed');
    expect(second).toHaveTextContent('JSON path $.status equals "ok"');
    expect(second).toHaveTextContent('Seen: "degraded"');
    expect(third).toHaveTextContent('Header X-Version exists');
    expect(third).toHaveTextContent('Seen: nothing');
  });

  it('shows up when the check held', async () => {
    answer = () =>
      jsonResponse(200, { success: true, result: { ...downResult.result, ok: true, error: null, certificate: null, assertions: [] } });
    const { field } = renderForm();
    await enter(field('name'), 'API');
    await enter(field('url'), 'https://api.example.com/health');
    await userEvent.click(screen.getByTestId('monitor-test-now'));
    expect(await screen.findByTestId('monitor-test-status')).toHaveTextContent('Up');
    expect(screen.queryByTestId('monitor-test-error')).not.toBeInTheDocument();
    expect(screen.queryByTestId('monitor-test-assertions')).not.toBeInTheDocument();
  });

  it('says why the test could not run (rate limited)', async () => {
    answer = () => jsonResponse(429, { success: false, message: 'Too many requests, please try again later' });
    const { field } = renderForm();
    await enter(field('name'), 'API');
    await enter(field('url'), 'https://api.example.com/health');
    await userEvent.click(screen.getByTestId('monitor-test-now'));
    expect(await screen.findByTestId('monitor-test-failed')).toHaveTextContent(/^The test could not run: /);
    expect(screen.queryByTestId('monitor-test-result')).not.toBeInTheDocument();
  });
});
