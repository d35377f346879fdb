import { isRoomAllowed, pageRoomSlug, SocketAccess } from './rooms';

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
    // A status page's room: open here to anyone (a password page's cookie is the gateway's to check).
    ['status:acme', 'anonymous', true],
    ['status:acme', 'display', true],
    ['status:default', 'member', true],
    ['status:Acme', 'anonymous', false],
    ['status:../x', 'anonymous', false],
    ['status:', 'anonymous', false],
    ['status:a', 'anonymous', false],
  ])('room %j for a %s socket: %s', (room, access, allowed) => {
    expect(isRoomAllowed(room, access)).toBe(allowed);
  });
});

describe('pageRoomSlug', () => {
  it.each([
    ['status:acme', 'acme'],
    ['status:acme-cloud-2', 'acme-cloud-2'],
    ['status', null],
    ['status:ACME', null],
    ['monitor:1', null],
    [7, null],
  ])('%j → %j', (room, slug) => {
    expect(pageRoomSlug(room)).toBe(slug);
  });
});
