import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, MEMBER, renderWithProviders, signIn, VIEWER } from '../../../test/render';
import { MutedBadge } from './MutedBadge';
import { MuteMenu } from './MuteMenu';

describe('MuteMenu', () => {
  let bodies: unknown[];
  let urls: string[];

  beforeEach(() => {
    signIn(MEMBER);
    bodies = [];
    urls = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        urls.push(url);
        bodies.push(JSON.parse(String(init.body)));
        const { until } = JSON.parse(String(init.body)) as { until: string | null };
        return Promise.resolve(jsonResponse(200, { success: true, message: 'Muted', data: { muted_until: until } }));
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('mutes a monitor for 8 hours from now', async () => {
    const before = Date.now();
    renderWithProviders(<MuteMenu kind="monitor" id={5} mutedUntil={null} />);
    await userEvent.click(screen.getByTestId('monitor-mute'));
    await userEvent.click(await screen.findByTestId('monitor-mute-8h'));
    await waitFor(() => expect(urls).toEqual(['/api/monitors/5/mute']));
    const until = Date.parse((bodies[0] as { until: string }).until);
    expect(until - before).toBeGreaterThanOrEqual(8 * 3_600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(8 * 3_600_000);
  });

  it('unmutes an agent muted until later', async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString();
    renderWithProviders(<MuteMenu kind="agent" id={3} mutedUntil={later} />);
    expect(screen.getByTestId('agent-mute')).toHaveTextContent('Muted');
    await userEvent.click(screen.getByTestId('agent-mute'));
    await userEvent.click(await screen.findByTestId('agent-unmute'));
    await waitFor(() => expect(bodies).toEqual([{ until: null }]));
    expect(urls).toEqual(['/api/agents/3/mute']);
  });

  it('refuses a chosen time in the past without asking the server', async () => {
    renderWithProviders(<MuteMenu kind="monitor" id={5} mutedUntil={null} />);
    await userEvent.click(screen.getByTestId('monitor-mute'));
    await userEvent.click(await screen.findByTestId('monitor-mute-until'));
    await userEvent.type(await screen.findByTestId('monitor-mute-until-input'), '2020-01-01T10:00');
    await userEvent.click(screen.getByTestId('monitor-mute-until-save'));
    expect(await screen.findByText('Choose a time in the future')).toBeInTheDocument();
    expect(urls).toEqual([]);
  });

  it('is not offered to a viewer', () => {
    signIn(VIEWER);
    renderWithProviders(<MuteMenu kind="monitor" id={5} mutedUntil={null} />);
    expect(screen.queryByTestId('monitor-mute')).toBeNull();
  });

  it('says until when a target is muted, and nothing once that time has passed', () => {
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const { rerender } = renderWithProviders(<MutedBadge until={later} testId="muted" />);
    expect(screen.getByTestId('muted')).toHaveTextContent('Muted until');
    rerender(<MutedBadge until="2020-01-01T00:00:00.000Z" testId="muted" />);
    expect(screen.queryByTestId('muted')).toBeNull();
  });
});
