import { MEMBER_ROOMS, PUBLIC_ROOMS } from '@vigil/proto';

/** Private room of one account, used to find that account's sockets when it changes. */
export function userRoom(userId: number): string {
  return `user:${userId}`;
}

const ENTITY_ROOM = /^(monitor|agent):[1-9]\d{0,8}$/;

/** Anonymous sockets may join only the public rooms; signed-in ones also the member and per-entity rooms. */
export function isRoomAllowed(room: unknown, signedIn: boolean): room is string {
  if (typeof room !== 'string') return false;
  if ((PUBLIC_ROOMS as readonly string[]).includes(room)) return true;
  if (!signedIn) return false;
  return (MEMBER_ROOMS as readonly string[]).includes(room) || ENTITY_ROOM.test(room);
}
