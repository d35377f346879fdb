import type { UserDto } from '@vigil/proto';
import type { User } from './user.entity';

/** The only shape a user leaves the server in: never the hash, never the token version. */
export function toUserDto(user: User): UserDto {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    created_at: user.createdAt.toISOString(),
  };
}
