import { describe, expect, it } from 'vitest';
import { followUpRequest, followUpValid, nextStep, withoutChannel } from './escalation';

describe('reminders and escalation', () => {
  it.each([
    ['no reminder and no steps', { reminderMinutes: null, escalation: [] }, true],
    ['a reminder every 30 minutes', { reminderMinutes: 30, escalation: [] }, true],
    ['a reminder of 0 minutes', { reminderMinutes: 0, escalation: [] }, false],
    ['a reminder beyond a week', { reminderMinutes: 10_081, escalation: [] }, false],
    ['a reminder of half a minute', { reminderMinutes: 0.5, escalation: [] }, false],
    ['a step with a channel', { reminderMinutes: null, escalation: [{ afterMinutes: 15, channels: [1] }] }, true],
    ['a step without a channel', { reminderMinutes: null, escalation: [{ afterMinutes: 15, channels: [] }] }, false],
    ['a step with no minutes typed', { reminderMinutes: null, escalation: [{ afterMinutes: Number.NaN, channels: [1] }] }, false],
    [
      'six steps',
      { reminderMinutes: null, escalation: Array.from({ length: 6 }, (_, index) => ({ afterMinutes: index + 1, channels: [1] })) },
      false,
    ],
  ])('%s: valid %s', (_case, settings, expected) => {
    expect(followUpValid(settings)).toBe(expected);
  });

  it('adds a step 30 minutes after the last one, with no channel yet', () => {
    expect(nextStep([])).toEqual({ afterMinutes: 30, channels: [] });
    expect(nextStep([{ afterMinutes: 45, channels: [1] }])).toEqual({ afterMinutes: 75, channels: [] });
  });

  it('sends the steps in the order they fire', () => {
    expect(
      followUpRequest({
        reminderMinutes: 10,
        escalation: [
          { afterMinutes: 60, channels: [2] },
          { afterMinutes: 5, channels: [1] },
        ],
      }),
    ).toEqual({
      reminder_minutes: 10,
      escalation: [
        { afterMinutes: 5, channels: [1] },
        { afterMinutes: 60, channels: [2] },
      ],
    });
  });

  it('drops a deleted channel from the steps, and a step left without channels', () => {
    expect(
      withoutChannel(
        [
          { afterMinutes: 5, channels: [1, 3] },
          { afterMinutes: 10, channels: [3] },
        ],
        3,
      ),
    ).toEqual([{ afterMinutes: 5, channels: [1] }]);
  });
});
