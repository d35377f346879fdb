import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SECRET_MASK } from '@vigil/proto';
import { describe, expect, it, vi } from 'vitest';
import { makeMonitor } from '../../../test/monitors';
import { renderWithProviders } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues, formValuesFromMonitor } from '../form';
import { MonitorForm } from './MonitorForm';

function renderForm(initial = defaultFormValues(), result: string | null = null) {
  const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(result));
  const view = renderWithProviders(<MonitorForm initial={initial} submitLabel="Create monitor" onSubmit={onSubmit} onCancel={vi.fn()} />);
  const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
  return { onSubmit, field, container: view.container };
}

/** Pastes text in one change: each keystroke re-renders the whole form, and typing long texts slowed specs down. */
async function enter(input: HTMLInputElement | null, text: string) {
  await userEvent.click(input!);
  await userEvent.paste(text);
}

async function fillRequired(field: (name: string) => HTMLInputElement | null) {
  await enter(field('name'), 'Shop');
  await enter(field('url'), 'https://shop.example.com/health');
}

describe('MonitorForm', () => {
  it('starts with GET, 1 minute, 30 seconds and 200', () => {
    const { field } = renderForm();
    expect(field('method')).toHaveValue('GET');
    expect(field('interval')).toHaveValue('1');
    expect(field('timeout')).toHaveValue('30');
    expect(field('expectedStatus')).toHaveValue('200');
  });

  it('offers the methods and the expected-status classes and codes', () => {
    const { field } = renderForm();
    const methods = within(field('method')!)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
    const statuses = within(field('expectedStatus')!).getAllByRole('option');
    expect(statuses.slice(0, 5).map((option) => [option.getAttribute('value'), option.textContent])).toEqual([
      ['2', '2xx'],
      ['3', '3xx'],
      ['4', '4xx'],
      ['5', '5xx'],
      ['200', '200'],
    ]);
    expect(statuses).toHaveLength(18);
  });

  it('turns a non-numeric interval into an error and sends nothing', async () => {
    const { field, onSubmit } = renderForm();
    await fillRequired(field);
    await userEvent.clear(field('interval')!);
    await userEvent.type(field('interval')!, 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));

    expect(await screen.findByText('Interval must be at least 10 seconds')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('offers seconds beside minutes and sends an interval given in seconds as seconds', async () => {
    const { field, onSubmit } = renderForm();
    await fillRequired(field);
    expect(field('intervalUnit')).toHaveValue('minutes');
    await userEvent.selectOptions(field('intervalUnit')!, 'seconds');
    await userEvent.clear(field('interval')!);
    await enter(field('interval'), '20');
    await userEvent.clear(field('timeout')!);
    await enter(field('timeout'), '16');
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ interval: 20, timeout: 16 }));
  });

  it('requires name and url before sending', async () => {
    const { onSubmit } = renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('URL is required')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    ['GET', false],
    ['POST', true],
    ['PUT', true],
    ['PATCH', true],
    ['DELETE', false],
    ['HEAD', false],
  ])('shows the body field for %s: %s', async (method, shown) => {
    const { field } = renderForm();
    await userEvent.selectOptions(field('method')!, method);
    expect(field('body') !== null).toBe(shown);
  });

  // Many steps through a full form: the longer limit allows for a loaded CI machine.
  it('appends a blank header row while typing, and sends trimmed names without blank rows, interval × 60', async () => {
    const { field, onSubmit } = renderForm();
    await fillRequired(field);
    expect(field('header-name-1')).toBeNull();
    await userEvent.type(field('header-name-0')!, '  X-Token ');
    expect(field('header-name-1')).not.toBeNull();
    await enter(field('header-value-0'), 'secret');
    await enter(field('header-value-1'), 'value without a name');
    expect(field('header-name-2')).not.toBeNull();
    await userEvent.clear(field('interval')!);
    await userEvent.type(field('interval')!, '5');
    await userEvent.selectOptions(field('expectedStatus')!, '3');
    await userEvent.selectOptions(field('method')!, 'POST');
    await userEvent.type(field('body')!, 'ping');
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toEqual({
      type: 'http',
      name: 'Shop',
      url: 'https://shop.example.com/health',
      maxRedirects: 5,
      ignoreTls: false,
      certExpiryDays: [14],
      assertions: [],
      method: 'POST',
      interval: 300,
      timeout: 30,
      expectedStatus: 3,
      headers: { 'X-Token': 'secret' },
      body: 'ping',
      retries: 1,
      retryInterval: 20,
      dependsOn: [],
      degradedAfterMs: null,
      description: null,
      tags: [],
      upsideDown: false,
      quorum: 'any',
      quorumMin: null,
    });
  }, 15_000);

  it('opens the advanced section to show a bad retry count', async () => {
    const { field, onSubmit } = renderForm();
    await fillRequired(field);
    await userEvent.click(screen.getByTestId('monitor-advanced'));
    await userEvent.clear(field('retries')!);
    await userEvent.type(field('retries')!, '20');
    await userEvent.click(screen.getByTestId('monitor-advanced'));
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(screen.getByTestId('monitor-advanced')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Retries must be a whole number from 0 to 10')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the failure text returned by the page in an alert', async () => {
    const { field } = renderForm(defaultFormValues(), 'Failed to create monitor, please try again later: Unknown error');
    await fillRequired(field);
    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create monitor, please try again later: Unknown error');
  });

  it('fills the edit form from the stored monitor, an interval that is not whole minutes in seconds', () => {
    const monitor = makeMonitor({ interval: 150, method: 'PUT', body: '{}', headers: { Accept: 'json' }, expected_status: 4 });
    const { field } = renderForm(formValuesFromMonitor(monitor));
    expect(field('interval')).toHaveValue('150');
    expect(field('intervalUnit')).toHaveValue('seconds');
    expect(field('method')).toHaveValue('PUT');
    expect(field('body')).toHaveValue('{}');
    expect(field('expectedStatus')).toHaveValue('4');
    expect(field('header-name-0')).toHaveValue('Accept');
    expect(field('header-name-1')).toHaveValue('');
  });

  it('shows masked credentials as kept and sends the masks back unchanged, so the server keeps them', async () => {
    const url = `https://${SECRET_MASK}@api.example.com/health?token=${SECRET_MASK}`;
    const monitor = makeMonitor({ url, headers: { Authorization: SECRET_MASK, Accept: 'json' } });
    const { field, onSubmit } = renderForm(formValuesFromMonitor(monitor));
    expect(field('header-value-0')).toHaveValue(SECRET_MASK);
    expect(screen.getByText('Saved value kept; type a new one to replace it')).toBeInTheDocument();
    expect(screen.getByText(/hidden credentials \(••••••••\) are kept while the address stays the same/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Create monitor' }));

    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ url, headers: { Authorization: SECRET_MASK, Accept: 'json' } }));
  });

  it('drops the kept hint once a new header value is typed', async () => {
    const { field } = renderForm(formValuesFromMonitor(makeMonitor({ headers: { Authorization: SECRET_MASK } })));
    await userEvent.clear(field('header-value-0')!);
    await enter(field('header-value-0'), 'Bearer new');
    expect(screen.queryByText('Saved value kept; type a new one to replace it')).not.toBeInTheDocument();
  });
});
