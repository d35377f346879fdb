import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues } from '../form';
import { MonitorForm } from './MonitorForm';

function renderForm() {
  const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
  const view = renderWithProviders(<MonitorForm initial={defaultFormValues()} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />);
  const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
  return { onSubmit, field };
}

async function enter(input: HTMLInputElement | null, text: string) {
  await userEvent.clear(input!);
  await userEvent.click(input!);
  await userEvent.paste(text);
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));
const options = (select: HTMLElement | null) =>
  within(select!)
    .getAllByRole('option')
    .map((option) => option.getAttribute('value'));

async function httpTarget(field: (name: string) => HTMLInputElement | null) {
  await enter(field('name'), 'API');
  await enter(field('url'), 'https://api.example.com/health');
}

describe('AssertionBuilder', () => {
  it('starts empty, and a new row on HTTP asks the status', async () => {
    const { field } = renderForm();
    expect(screen.getByTestId('assertions-empty')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('assertion-add'));
    expect(field('assertion-source-0')).toHaveValue('status');
    expect(field('assertion-operator-0')).toHaveValue('eq');
    expect(field('assertion-path-0')).toBeNull();
  });

  it.each([
    ['http', ['status', 'responseTime', 'body', 'jsonPath', 'header', 'certificateDays']],
    ['tcp', ['responseTime']],
    ['ping', ['responseTime', 'packetLoss']],
    ['dns', ['responseTime', 'dnsAnswer']],
    ['postgres', ['responseTime', 'rowCount', 'value']],
    ['redis', ['responseTime', 'value']],
  ] as const)('offers %s only the sources its checks observe', async (type, sources) => {
    const { field } = renderForm();
    await userEvent.click(screen.getByTestId(`monitor-type-${type}`));
    await userEvent.click(screen.getByTestId('assertion-add'));
    expect(options(field('assertion-source-0'))).toEqual(sources);
  });

  it('asks a path for JSON path and header, and no value for exists', async () => {
    const { field } = renderForm();
    await userEvent.click(screen.getByTestId('assertion-add'));
    await userEvent.selectOptions(field('assertion-source-0')!, 'jsonPath');
    expect(field('assertion-path-0')).toHaveAttribute('placeholder', 'JSON path, e.g. $.status');
    await userEvent.selectOptions(field('assertion-source-0')!, 'header');
    expect(field('assertion-path-0')).toHaveAttribute('placeholder', 'Header name');
    expect(field('assertion-value-0')).not.toBeNull();
    await userEvent.selectOptions(field('assertion-operator-0')!, 'exists');
    expect(field('assertion-value-0')).toBeNull();
  });

  it.each([
    ['jsonPath', '', 'eq', 'ok', 'A jsonPath or header assertion needs a path (for example $.status or Content-Type)'],
    [
      'jsonPath',
      '$.items[*]',
      'eq',
      'ok',
      'Assertion path is invalid: a JSONPath such as $.a.b[0]["c"], or a header name, at most 200 characters',
    ],
    ['status', '', 'lt', '', 'This assertion operator needs a value (text, number, true, false or null)'],
    ['responseTime', '', 'lt', 'fast', 'lt, lte, gt and gte compare numbers: the value must be a number'],
    ['body', '', 'matches', '(unclosed', 'The matches value must be a valid regular expression (pattern or /pattern/flags)'],
  ])('refuses %s %j %s %j: %s', async (source, path, operator, value, message) => {
    const { field, onSubmit } = renderForm();
    await httpTarget(field);
    await userEvent.click(screen.getByTestId('assertion-add'));
    await userEvent.selectOptions(field('assertion-source-0')!, source);
    if (path) await enter(field('assertion-path-0'), path);
    await userEvent.selectOptions(field('assertion-operator-0')!, operator);
    if (value) await enter(field('assertion-value-0'), value);
    await save();
    expect(screen.getByTestId('assertion-error-0')).toHaveTextContent(message);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the rows: numbers on numeric sources, text elsewhere, path where used, no value for exists', async () => {
    const { field, onSubmit } = renderForm();
    await httpTarget(field);
    for (let index = 0; index < 4; index += 1) await userEvent.click(screen.getByTestId('assertion-add'));
    await userEvent.selectOptions(field('assertion-source-0')!, 'responseTime');
    await userEvent.selectOptions(field('assertion-operator-0')!, 'lt');
    await enter(field('assertion-value-0'), '300');
    await userEvent.selectOptions(field('assertion-source-1')!, 'jsonPath');
    await enter(field('assertion-path-1'), '$.status');
    await enter(field('assertion-value-1'), '200');
    await userEvent.selectOptions(field('assertion-source-2')!, 'header');
    await enter(field('assertion-path-2'), 'X-Version');
    await userEvent.selectOptions(field('assertion-operator-2')!, 'exists');
    await userEvent.selectOptions(field('assertion-source-3')!, 'body');
    await userEvent.selectOptions(field('assertion-operator-3')!, 'notContains');
    await enter(field('assertion-value-3'), 'error');
    await save();

    expect(onSubmit.mock.calls[0][0].assertions).toEqual([
      { source: 'responseTime', operator: 'lt', value: 300 },
      { source: 'jsonPath', path: '$.status', operator: 'eq', value: '200' },
      { source: 'header', path: 'X-Version', operator: 'exists' },
      { source: 'body', operator: 'notContains', value: 'error' },
    ]);
  }, 15_000);

  it('removes a row, and a type change drops the rows the new type cannot evaluate', async () => {
    const { field } = renderForm();
    await userEvent.click(screen.getByTestId('assertion-add'));
    await userEvent.click(screen.getByTestId('assertion-add'));
    await userEvent.selectOptions(field('assertion-source-1')!, 'responseTime');
    await userEvent.click(screen.getByTestId('assertion-add'));
    await userEvent.click(screen.getByTestId('assertion-remove-2'));
    expect(screen.queryByTestId('assertion-2')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId('monitor-type-tcp'));
    expect(screen.queryByTestId('assertion-1')).not.toBeInTheDocument();
    expect(field('assertion-source-0')).toHaveValue('responseTime');
  });
});
