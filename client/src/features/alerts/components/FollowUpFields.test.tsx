import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { makeChannel } from '../../../test/notifications';
import { MEMBER, renderWithProviders, signIn, VIEWER } from '../../../test/render';
import type { FollowUp } from '../escalation';
import { FollowUpFields } from './FollowUpFields';

const channels = [makeChannel({ id: 1, name: 'Ops chat' }), makeChannel({ id: 2, name: 'Pager' })];
let latest: FollowUp = { reminderMinutes: null, escalation: [] };

function Harness({ initial }: { initial: FollowUp }) {
  const [value, setValue] = useState(initial);
  useEffect(() => {
    latest = value;
  }, [value]);
  return <FollowUpFields value={value} channels={channels} onChange={(patch) => setValue({ ...value, ...patch })} testId="f" />;
}

describe('FollowUpFields', () => {
  it('sets a reminder and clears it again', async () => {
    signIn(MEMBER);
    renderWithProviders(<Harness initial={{ reminderMinutes: null, escalation: [] }} />);
    await userEvent.type(screen.getByTestId('f-reminder'), '20');
    expect(latest.reminderMinutes).toBe(20);
    await userEvent.clear(screen.getByTestId('f-reminder'));
    expect(latest.reminderMinutes).toBeNull();
  });

  it('adds steps 30 minutes apart and removes one', async () => {
    signIn(MEMBER);
    renderWithProviders(<Harness initial={{ reminderMinutes: 20, escalation: [] }} />);
    await userEvent.click(screen.getByTestId('f-step-add'));
    await userEvent.click(screen.getByTestId('f-step-add'));
    expect(latest).toEqual({
      reminderMinutes: 20,
      escalation: [
        { afterMinutes: 30, channels: [] },
        { afterMinutes: 60, channels: [] },
      ],
    });
    // A step without a channel says so before saving.
    expect(screen.getAllByText('Choose at least one channel')).toHaveLength(2);

    await userEvent.click(screen.getByTestId('f-step-0-remove'));
    expect(latest.escalation).toEqual([{ afterMinutes: 60, channels: [] }]);
  });

  it('offers no more than five steps', async () => {
    signIn(MEMBER);
    const steps = Array.from({ length: 5 }, (_, index) => ({ afterMinutes: (index + 1) * 10, channels: [1] }));
    renderWithProviders(<Harness initial={{ reminderMinutes: null, escalation: steps }} />);
    expect(screen.queryByTestId('f-step-add')).toBeNull();
  });

  it('shows a viewer the settings without a way to change them', () => {
    signIn(VIEWER);
    renderWithProviders(<Harness initial={{ reminderMinutes: 15, escalation: [{ afterMinutes: 10, channels: [2] }] }} />);
    expect(screen.getByTestId('f-reminder')).toBeDisabled();
    expect(screen.queryByTestId('f-step-add')).toBeNull();
    expect(screen.queryByTestId('f-step-0-remove')).toBeNull();
  });
});
