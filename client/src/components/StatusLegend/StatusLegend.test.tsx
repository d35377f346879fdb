import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { StatusLegend } from './StatusLegend';

describe('StatusLegend', () => {
  it('explains every status with its dot, its word and what it counts as', () => {
    renderWithProviders(<StatusLegend />);
    const entries = within(screen.getByTestId('status-legend')).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual(['Up', 'Down', 'Pending', 'Degraded', 'Unreachable', 'Maintenance']);
    expect(entries[3]).toHaveAttribute('title', expect.stringContaining('counted as up'));
    expect(entries[4]).toHaveAttribute('title', expect.stringContaining('counted as down'));
    expect(entries[4].querySelector('[aria-hidden]')?.className).toMatch(/unreachable/);
    expect(entries[5]).toHaveAttribute('title', expect.stringContaining('counted neither up nor down'));
    expect(entries[5].querySelector('[aria-hidden]')?.className).toMatch(/maintenance/);
  });
});
