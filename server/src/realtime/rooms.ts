import { DISPLAY_ROOMS, MEMBER_ROOMS, PUBLIC_ROOMS } from '@vigil/proto';

/** Private room of one account, used to find that account's sockets when it changes. */
export function userRoom(userId: number): string {
  return `user:${userId}`;
}

/** Private room of the sockets opened with one display key, to drop them when it is revoked. */
export function displayRoom(keyId: number): string {
  return `display:${keyId}`;
}

/** Who a socket is: an anonymous visitor, a wall screen with a display key, or a signed-in user. */
export type SocketAccess = 'anonymous' | 'display' | 'member';

const ENTITY_ROOM = /^(monitor|agent):[1-9]\d{0,8}$/;
/** A status page's own room: `status:<slug>` (the slug's shape; whether the page exists and opens is the gateway's). */
const PAGE_ROOM = /^status:([a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9]))$/;

/** The slug of a status page's room, or null for any other room. */
export function pageRoomSlug(room: unknown): string | null {
  return typeof room === 'string' ? (PAGE_ROOM.exec(room)?.[1] ?? null) : null;
}

/** The room of a status page's visitors. */
export const pageRoom = (slug: string): string => `status:${slug}`;

/** Anonymous sockets may join only the public rooms and pages' rooms, display sockets also the wall, members the rest. */
export function isRoomAllowed(room: unknown, access: SocketAccess): room is string {
  if (typeof room !== 'string') return false;
  // A page's room is open to anyone here; a password page asks for its cookie as well (RealtimeGateway).
  if ((PUBLIC_ROOMS as readonly string[]).includes(room) || pageRoomSlug(room) !== null) return true;
  if (access === 'display') return (DISPLAY_ROOMS as readonly string[]).includes(room);
  if (access !== 'member') return false;
  return (MEMBER_ROOMS as readonly string[]).includes(room) || ENTITY_ROOM.test(room);
}
