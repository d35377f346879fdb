import { isRoomAllowed } from './rooms';

describe('isRoomAllowed', () => {
  it.each([
    ['status', false, true],
    ['monitors', false, false],
    ['agents', false, false],
    ['monitor:12', false, false],
    ['admins', false, false],
    ['status', true, true],
    ['monitors', true, true],
    ['agents', true, true],
    ['monitor:12', true, true],
    ['agent:7', true, true],
    ['admins', true, false],
    ['user:1', true, false],
    ['monitor:0', true, false],
    ['monitor:abc', true, false],
    [42, true, false],
    [null, true, false],
  ])('room %j for a signed-in=%s socket: %s', (room, signedIn, allowed) => {
    expect(isRoomAllowed(room, signedIn)).toBe(allowed);
  });
});
