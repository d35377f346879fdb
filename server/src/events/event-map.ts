import type { UserDto } from '@vigil/proto';

/** Every domain event: name → payload. Services raise them; listeners react. */
export interface EventMap {
  'user.created': { user: UserDto };
  'user.updated': { user: UserDto };
  'user.deleted': { user: UserDto };
}

export type EventName = keyof EventMap;
