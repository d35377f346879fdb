import { dueWork, firstDue, IDLE_MINUTES, policyOf } from './escalation';

const MINUTE = 60_000;
const opened = new Date('2026-11-27T10:00:00Z');
const at = (minutes: number) => new Date(opened.getTime() + minutes * MINUTE);
const policy = {
  reminderMinutes: 10,
  escalation: [
    { afterMinutes: 15, channels: [2] },
    { afterMinutes: 30, channels: [3] },
  ],
};

describe('reminder and escalation timing', () => {
  it.each([
    // minutes since opening, reminders sent, steps taken → remind, reminders, new steps, next due (minutes)
    [5, 0, 0, false, 0, [], 10],
    [10, 0, 0, true, 1, [], 15],
    [14, 1, 0, false, 1, [], 15],
    [15, 1, 0, false, 1, [1], 20],
    [20, 1, 1, true, 2, [], 30],
    [31, 2, 1, true, 3, [2], 40],
    // The sweep was away for an hour: one reminder, every step at once, counted as if none were missed.
    [60, 0, 0, true, 6, [1, 2], 70],
  ])('%i min after opening with %i reminders and %i steps sent', (minutes, reminders, step, remind, sent, steps, next) => {
    const sut = dueWork({ openedAt: opened, remindersSent: reminders, escalationStep: step }, policy, at(minutes), MINUTE);
    expect(sut.remind).toBe(remind);
    expect(sut.remindersSent).toBe(sent);
    expect(sut.steps.map((s) => s.number)).toEqual(steps);
    expect(sut.nextAt).toEqual(at(next));
  });

  it('has nothing due without reminders or escalation', () => {
    expect(
      dueWork({ openedAt: opened, remindersSent: 0, escalationStep: 0 }, { reminderMinutes: null, escalation: [] }, at(500), MINUTE),
    ).toEqual({
      remind: false,
      remindersSent: 0,
      steps: [],
      escalationStep: 0,
      nextAt: null,
    });
  });

  it('follows a shortened minute (the test clock)', () => {
    const sut = dueWork({ openedAt: opened, remindersSent: 0, escalationStep: 0 }, policy, new Date(opened.getTime() + 1500), 100);
    expect(sut).toMatchObject({ remind: true, remindersSent: 1, escalationStep: 1 });
  });

  it.each([
    ['nothing applies', null, IDLE_MINUTES],
    ['nothing configured', { reminder_minutes: null, escalation: [] }, IDLE_MINUTES],
    ['a reminder every 30', { reminder_minutes: 30, escalation: [] }, 30],
    ['an escalation step before the reminder', { reminder_minutes: 30, escalation: [{ afterMinutes: 5, channels: [1] }] }, 5],
  ])('is first due as its policy says: %s', (_, settings, minutes) => {
    expect(firstDue(policyOf(settings), opened, MINUTE)).toEqual(new Date(opened.getTime() + minutes * MINUTE));
  });
});
