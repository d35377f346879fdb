import request from 'supertest';
import type { LoginResponse, Role, UserDto } from '@vigil/proto';

let sequence = 0;

/** A valid, unique set of account fields. */
export function userInput(overrides: Partial<{ username: string; email: string; password: string }> = {}) {
  sequence += 1;
  const username = overrides.username ?? `user${Date.now().toString(36)}${sequence}`;
  return { username, email: `${username}@example.test`, password: 'correct-horse-1', ...overrides };
}

export interface Session {
  user: UserDto;
  token: string;
  password: string;
  auth: { Authorization: string };
}

export async function login(url: string, username: string, password: string): Promise<Session> {
  const response = await request(url).post('/api/auth/login').send({ username, password }).expect(200);
  const body = response.body as LoginResponse;
  return { user: body.user, token: body.token, password, auth: { Authorization: `Bearer ${body.token}` } };
}

/** Registers the first account of a fresh install, which becomes the admin. */
export async function registerFirstAdmin(url: string): Promise<Session> {
  const input = userInput({ username: 'admin' });
  await request(url).post('/api/auth/register').send(input).expect(201);
  return login(url, input.username, input.password);
}

/** An account created by an admin, signed in. */
export async function createUser(url: string, admin: Session, role: Role = 'user'): Promise<Session> {
  const input = userInput();
  await request(url)
    .post('/api/users')
    .set(admin.auth)
    .send({ ...input, role })
    .expect(201);
  return login(url, input.username, input.password);
}
