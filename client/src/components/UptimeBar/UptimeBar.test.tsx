import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { slotTone, uptimeSlots } from './slots';
import { UptimeBar } from './UptimeBar';

const points = (count: number, status = 'up') =>
  Array.from({ length: count }, (_, index) => ({ status, timestamp: `2025-01-01T00:${String(index).padStart(2, '0')}:00Z` }));

describe('uptime bar', () => {
  it.each([
    [0, 0, 24],
    [5, 5, 19],
    [24, 24, 0],
    [30, 24, 0],
  ])('shows %i points as %i dots and %i empty slots', (given, shown, empty) => {
    const slots = uptimeSlots(points(given));
    expect(slots).toHaveLength(24);
    expect(slots.filter((slot) => slot.status === 'up')).toHaveLength(shown);
    expect(slots.filter((slot) => slot.status === 'empty')).toHaveLength(empty);
  });

  it('keeps the first 24 points, not the last', () => {
    const given = [...points(24, 'up'), { status: 'down' }];
    expect(uptimeSlots(given).some((slot) => slot.status === 'down')).toBe(false);
  });

  it('pads a 40-slot bar to 40', () => {
    expect(uptimeSlots(points(3), 40)).toHaveLength(40);
  });

  it.each([
    ['up', 'up'],
    ['down', 'down'],
    ['pending', 'pending'],
    ['degraded', 'degraded'],
    ['unreachable', 'unreachable'],
    ['empty', 'empty'],
    ['unknown', 'unknown'],
    ['maintenance', 'maintenance'],
    ['paused', 'unknown'],
  ])('shows status %s as %s', (status, tone) => {
    expect(slotTone(status)).toBe(tone);
  });

  it('renders one dot per slot with its status and time in the title', () => {
    renderWithProviders(
      <UptimeBar points={[{ status: 'up', timestamp: '2025-01-01T10:00:00Z' }, { status: 'down' }, { status: 'odd' }]} />,
    );
    const dots = screen.getByTestId('uptime-bar').children;
    expect(dots).toHaveLength(24);
    expect([...dots].slice(0, 4).map((dot) => dot.getAttribute('data-status'))).toEqual(['up', 'down', 'unknown', 'empty']);
    expect(dots[0].getAttribute('title')).toMatch(/^Up · .*2025/);
    expect(dots[3].getAttribute('title')).toBe('No data');
  });
});
