import { screen, within } from '@testing-library/react';
import { SECRET_MASK } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { makeMonitor } from '../../../test/monitors';
import { renderWithProviders } from '../../../test/render';
import { MonitorSettings } from './MonitorSettings';

describe('MonitorSettings of a type drawn from its spec', () => {
  it("lists its host, port and settings under the spec's labels, the secret as the read's mask", () => {
    const monitor = makeMonitor({
      type: 'mqtt',
      url: 'mqtt://broker.lan:1883',
      hostname: 'broker.lan',
      port: 1883,
      settings: { mqttProtocol: 'mqtt', mqttTopic: 'plant/#', mqttPassword: SECRET_MASK, mqttSuccessMessage: '' },
    });
    renderWithProviders(<MonitorSettings monitor={monitor} />);
    const card = screen.getByTestId('monitor-settings');
    const value = (label: string) => within(card).getByText(label).parentElement;
    expect(value('Topic')).toHaveTextContent('plant/#');
    expect(value('Password')).toHaveTextContent(SECRET_MASK);
    expect(value('Port')).toHaveTextContent('1883');
    // An empty setting is left out rather than shown blank; the first types' rows are not shown.
    expect(within(card).queryByText('Success keyword')).not.toBeInTheDocument();
    expect(within(card).queryByText('Maximum redirects')).not.toBeInTheDocument();
  });
});
