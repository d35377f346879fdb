import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeMonitor, monitorsPage } from '../../../test/monitors';
import { jsonResponse, MEMBER, renderWithProviders, signIn } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues, formValuesFromMonitor } from '../form';
import { MonitorForm } from './MonitorForm';

function renderForm(initial = defaultFormValues()) {
  const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
  const view = renderWithProviders(
    <MonitorForm initial={initial} editing={false} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />,
  );
  const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
  return { onSubmit, field };
}

async function enter(input: HTMLInputElement | null, text: string) {
  await userEvent.clear(input!);
  await userEvent.click(input!);
  await userEvent.paste(text);
}

describe('MonitorForm and groups', () => {
  beforeEach(() => {
    signIn(MEMBER);
    // The "Group" picker reads the groups there are once opened, and the saved group by id.
    const web = makeMonitor({ id: 9, name: 'Web', type: 'group' });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(
          url === '/api/monitors/9' ? jsonResponse(200, { success: true, monitor: web }) : jsonResponse(200, monitorsPage([web])),
        ),
      ),
    );
  });

  it('sends a group with its rule and count, offering no check, assertions or test', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-group'));
    expect(screen.getByTestId('monitor-group-hint')).toBeInTheDocument();
    expect(screen.queryByTestId('assertion-builder')).not.toBeInTheDocument();
    expect(screen.queryByTestId('monitor-test-now')).not.toBeInTheDocument();
    await enter(field('name'), 'Web');
    await userEvent.selectOptions(field('groupRule') as unknown as HTMLSelectElement, 'atLeast');
    await enter(field('groupMin'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText('Members down must be a whole number from 1 to 1000')).toBeInTheDocument();
    await enter(field('groupMin'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ type: 'group', name: 'Web', groupRule: 'atLeast', groupMin: 2 }));
  }, 15_000);

  it('keeps a member in its group, and sends null once the group is cleared', async () => {
    const member = makeMonitor({ id: 3, name: 'API', parent_id: 9 });
    const { onSubmit } = renderForm(formValuesFromMonitor(member));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ parentId: 9 }));
    const picker = await screen.findByTestId('monitor-parent');
    await screen.findByDisplayValue('Web');
    const clear = picker.parentElement!.querySelector('button');
    await userEvent.click(clear!);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ parentId: null }));
  }, 15_000);
});
