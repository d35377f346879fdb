import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, SECRET_MASK } from '@vigil/proto';
import { describe, expect, it, vi } from 'vitest';
import { makeMonitor } from '../../../test/monitors';
import { renderWithProviders } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues, formValuesFromMonitor } from '../form';
import { MonitorForm } from './MonitorForm';

// MQTT stands for every added type here: its form is drawn from its spec (proto/src/type-specs/mqtt.ts).
function renderForm(initial = defaultFormValues(), editing = false) {
  const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
  const view = renderWithProviders(
    <MonitorForm initial={initial} editing={editing} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />,
  );
  const field = (name: string) => view.container.querySelector<HTMLInputElement>(`[name="${name}"]`);
  return { onSubmit, field };
}

async function enter(input: HTMLInputElement | null, text: string) {
  expect(input).not.toBeNull();
  await userEvent.clear(input!);
  if (text !== '') {
    await userEvent.click(input!);
    await userEvent.paste(text);
  }
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('MonitorForm for a type drawn from its spec', () => {
  it('shows the spec fields in its order, labelled and explained from the dictionaries, with the defaults filled', async () => {
    const { field } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-mqtt'));
    const names = [...document.querySelectorAll('[data-testid="monitor-spec-fields"] input[name]')].map((input) =>
      input.getAttribute('name'),
    );
    expect(names).toEqual(expect.arrayContaining(['hostname', 'port', 'mqttTopic', 'mqttPassword', 'mqttSuccessMessage']));
    expect(names.indexOf('hostname')).toBeLessThan(names.indexOf('mqttTopic'));
    expect(field('port')).toHaveValue('1883');
    expect(screen.getByLabelText(/^Broker host/)).toBe(field('hostname'));
    expect(screen.getByLabelText(/^Topic/)).toBe(field('mqttTopic'));
    expect(screen.getByText(/\+ stands for one level and # for all the rest/)).toBeInTheDocument();
    expect(field('mqttPassword')).toHaveAttribute('type', 'password');
    // A type without a URL column has no URL input; the HTTP-only inputs are gone.
    expect(field('url')).toBeNull();
    expect(field('method')).toBeNull();
  });

  it("refuses settings by the spec's own rules with the server's messages, and sends them flat once right", async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-mqtt'));
    await enter(field('name'), 'Sensors');
    await enter(field('hostname'), 'broker.lan');
    await save();
    expect(screen.getByText(MESSAGES['notifications.fieldRequired'])).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await enter(field('mqttTopic'), 'sensors/#/status');
    await save();
    expect(screen.getByText(MESSAGES['monitors.mqttTopicInvalid'])).toBeInTheDocument();

    // The rule across fields: a message can only be published to a topic without wildcards.
    await enter(field('mqttTopic'), 'sensors/+/status');
    await enter(field('mqttPublishMessage'), 'ping');
    await save();
    expect(screen.getByText(MESSAGES['monitors.mqttPublishWildcard'])).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await enter(field('mqttTopic'), 'sensors/kitchen/status');
    await enter(field('port'), '8883');
    await save();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const body = onSubmit.mock.calls[0][0] as unknown as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'mqtt',
      name: 'Sensors',
      hostname: 'broker.lan',
      port: 8883,
      mqttTopic: 'sensors/kitchen/status',
      mqttPublishMessage: 'ping',
      mqttProtocol: 'mqtt',
      mqttCheckType: 'keyword',
      ignoreTls: false,
    });
    // Flat: no nested settings object, no HTTP fields, blank optional settings left out.
    expect(body).not.toHaveProperty('settings');
    expect(body).not.toHaveProperty('method');
    expect(body).not.toHaveProperty('mqttPassword');
  });

  it('fills the form from a read, keeps a masked secret by sending the mask back, and sends a retyped one', async () => {
    const monitor = makeMonitor({
      type: 'mqtt',
      url: 'mqtt://broker.lan:1883',
      hostname: 'broker.lan',
      port: 1883,
      settings: { mqttProtocol: 'mqtt', mqttTopic: 'plant/#', mqttUsername: 'vigil', mqttPassword: SECRET_MASK, mqttCheckType: 'none' },
    });
    const { field, onSubmit } = renderForm(formValuesFromMonitor(monitor), true);
    expect(field('mqttTopic')).toHaveValue('plant/#');
    expect(field('mqttUsername')).toHaveValue('vigil');
    expect(field('mqttPassword')).toHaveValue(SECRET_MASK);
    expect(screen.getByText('Saved value kept; type a new one to replace it')).toBeInTheDocument();

    await save();
    expect(onSubmit).toHaveBeenLastCalledWith(
      expect.objectContaining({
        type: 'mqtt',
        mqttTopic: 'plant/#',
        mqttUsername: 'vigil',
        mqttPassword: SECRET_MASK,
        mqttCheckType: 'none',
      }),
    );

    await enter(field('mqttPassword'), 'n3w-secret');
    await save();
    expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ mqttPassword: 'n3w-secret' }));
  });

  it('offers a manual monitor no test, assertions or fields of its own', async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-manual'));
    expect(screen.queryByTestId('monitor-spec-fields')).not.toBeInTheDocument();
    expect(screen.queryByTestId('monitor-test-now')).not.toBeInTheDocument();
    expect(field('hostname')).toBeNull();
    await enter(field('name'), 'Generator');
    await save();
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ type: 'manual', name: 'Generator' }));
    expect(onSubmit.mock.calls[0][0]).not.toHaveProperty('url');
  });
});
