import { screen } from '@testing-library/react';
import type { MonitorStatus } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { makeAgent } from '../../../test/agents';
import { renderWithProviders } from '../../../test/render';
import { AgentStatusBadge } from '../../agents/components/AgentStatusBadge';
import { MonitorStatusBadge } from './MonitorStatusBadge';

describe('status badges', () => {
  it.each([
    ['up', 'Up', 'green'],
    ['down', 'Down', 'red'],
    ['pending', 'Pending', 'yellow'],
    ['degraded', 'Degraded', 'orange'],
    ['unreachable', 'Unreachable', 'grape'],
  ] as const)('shows a monitor %s as "%s" in its own colour (%s)', (status: MonitorStatus, label, color) => {
    renderWithProviders(<MonitorStatusBadge monitor={{ active: true, status }} testId="badge" />);
    const badge = screen.getByTestId('badge');
    expect(badge).toHaveTextContent(label);
    expect(badge).toHaveAttribute('data-status', status);
    expect(badge.getAttribute('style')).toContain(`--mantine-color-${color}`);
  });

  it('puts a flapping badge beside the status, never on a paused monitor', () => {
    const { unmount } = renderWithProviders(
      <MonitorStatusBadge monitor={{ active: true, status: 'down', flapping: true }} testId="badge" />,
    );
    expect(screen.getByTestId('badge-flapping')).toHaveTextContent('Flapping');
    unmount();
    renderWithProviders(<MonitorStatusBadge monitor={{ active: false, status: 'down', flapping: true }} testId="badge" />);
    expect(screen.getByTestId('badge')).toHaveAttribute('data-status', 'paused');
    expect(screen.queryByTestId('badge-flapping')).toBeNull();
  });

  it('shows an offline agent behind a down dependency as unreachable, and an online one as online whatever the flag', () => {
    const agent = makeAgent({ status: 'inactive', unreachable: true });
    const { unmount } = renderWithProviders(<AgentStatusBadge status={agent.status} unreachable={agent.unreachable} testId="agent" />);
    expect(screen.getByTestId('agent')).toHaveAttribute('data-status', 'unreachable');
    expect(screen.getByTestId('agent')).toHaveTextContent('Unreachable');
    unmount();
    renderWithProviders(<AgentStatusBadge status="active" unreachable testId="agent" />);
    expect(screen.getByTestId('agent')).toHaveAttribute('data-status', 'active');
  });
});
