import { isRoomAllowed, SocketAccess } from './rooms';

describe('isRoomAllowed', () => {
  it.each<[unknown, SocketAccess, boolean]>([
    ['status', 'anonymous', true],
    ['monitors', 'anonymous', false],
    ['agents', 'anonymous', false],
    ['wall', 'anonymous', false],
    ['monitor:12', 'anonymous', false],
    ['admins', 'anonymous', false],
    ['status', 'display', true],
    ['wall', 'display', true],
    ['monitors', 'display', false],
    ['agents', 'display', false],
    ['monitor:12', 'display', false],
    ['admins', 'display', false],
    ['status', 'member', true],
    ['monitors', 'member', true],
    ['agents', 'member', true],
    ['wall', 'member', true],
    ['monitor:12', 'member', true],
    ['agent:7', 'member', true],
    ['admins', 'member', false],
    ['user:1', 'member', false],
    ['display:1', 'member', false],
    ['monitor:0', 'member', false],
    ['monitor:abc', 'member', false],
    [42, 'member', false],
    [null, 'member', false],
  ])('room %j for a %s socket: %s', (room, access, allowed) => {
    expect(isRoomAllowed(room, access)).toBe(allowed);
  });
});
