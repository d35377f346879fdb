import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n';
import { makeMonitor } from '../../../test/monitors';
import { renderWithProviders } from '../../../test/render';
import type { MonitorBody } from '../api';
import { defaultFormValues, formValuesFromMonitor } from '../form';
import { MonitorForm } from './MonitorForm';
import { specSettingRows } from './SpecTypeFields';

function renderForm(initial = defaultFormValues(), editing = false) {
  const onSubmit = vi.fn<(request: MonitorBody) => Promise<string | null>>(() => Promise.resolve(null));
  const view = renderWithProviders(
    <MonitorForm initial={initial} editing={editing} submitLabel="Save" onSubmit={onSubmit} onCancel={vi.fn()} />,
  );
  const field = <T extends HTMLElement = HTMLInputElement>(name: string) => view.container.querySelector<T>(`[name="${name}"]`);
  return { onSubmit, field };
}

async function enter(input: HTMLElement | null, text: string) {
  expect(input).not.toBeNull();
  await userEvent.clear(input!);
  await userEvent.click(input!);
  await userEvent.paste(text);
}

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));
const body = (onSubmit: ReturnType<typeof renderForm>['onSubmit']) => onSubmit.mock.lastCall![0] as unknown as Record<string, unknown>;

describe('SpecTypeFields', () => {
  it("shows a select's choices in words from the dictionary and sends the chosen value", async () => {
    const monitor = makeMonitor({
      type: 'mqtt',
      url: 'mqtt://broker.lan:1883',
      hostname: 'broker.lan',
      port: 1883,
      settings: { mqttProtocol: 'mqtt', mqttTopic: 'sensors/kitchen', mqttCheckType: 'keyword' },
    });
    const { onSubmit } = renderForm(formValuesFromMonitor(monitor), true);
    // The saved `keyword` reads as its label, not as the raw value.
    const choice = screen.getByTestId('monitor-setting-mqttCheckType');
    expect(choice).toHaveValue('Keyword');

    await userEvent.click(choice);
    expect(await screen.findByRole('option', { name: 'Any message' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('option', { name: 'JSON query' }));
    expect(choice).toHaveValue('JSON query');
    await save();
    expect(body(onSubmit)).toMatchObject({ type: 'mqtt', mqttCheckType: 'json-query' });
  });

  it('words the choices in Chinese too', async () => {
    renderForm();
    await i18n.changeLanguage('zh-CN');
    await userEvent.click(screen.getByTestId('monitor-type-smtp'));
    await userEvent.click(screen.getByTestId('monitor-setting-smtpSecurity'));
    expect(await screen.findByRole('option', { name: '忽略 STARTTLS（明文）' })).toBeInTheDocument();
    await i18n.changeLanguage('en-US');
  });

  it("types a browser check's steps one per line and sends them as written, commas and all", async () => {
    const { field, onSubmit } = renderForm();
    await userEvent.click(screen.getByTestId('monitor-type-browser'));
    const steps = field<HTMLTextAreaElement>('steps');
    expect(steps?.tagName).toBe('TEXTAREA');

    await enter(field('name'), 'Shop');
    await enter(field('url'), 'https://shop.example.com/');
    await enter(steps, 'fill #q = shoes, red\nclick text=Search\n\nexpectText Results; 3 found');
    await save();
    expect(body(onSubmit)).toMatchObject({
      type: 'browser',
      steps: ['fill #q = shoes, red', 'click text=Search', 'expectText Results; 3 found'],
    });
  });

  it('reads saved steps back one per line and sends them unchanged', async () => {
    const saved = ['fill #q = a, b', 'click #go', 'expectText Done'];
    const monitor = makeMonitor({ type: 'browser', url: 'https://shop.example.com/', settings: { steps: saved, ignoreTls: false } });
    const { field, onSubmit } = renderForm(formValuesFromMonitor(monitor), true);
    expect(field<HTMLTextAreaElement>('steps')).toHaveValue(saved.join('\n'));
    await save();
    expect(body(onSubmit)).toMatchObject({ steps: saved });
  });

  it("lists a select's saved choice in words on the settings tab, and an unknown one as it is", () => {
    const exists = (key: string) => i18n.exists(key);
    const rows = (settings: Record<string, unknown>) =>
      specSettingRows(i18n.t, exists, makeMonitor({ type: 'snmp', hostname: 'switch.lan', port: 161, settings }));
    expect(rows({ snmpVersion: '3', snmpOid: '1.3.6.1.2.1.1.3.0' })).toContainEqual(['SNMP version', 'SNMPv3']);
    expect(rows({ snmpVersion: '4', snmpOid: '1.3.6.1.2.1.1.3.0' })).toContainEqual(['SNMP version', '4']);
  });
});
