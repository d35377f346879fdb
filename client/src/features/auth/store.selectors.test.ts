import type { Role } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../../test/render';
import { selectCanWrite, selectIsAdmin, useAuthStore } from './store';

const signedInAs = (role: Role) => ({ ...useAuthStore.getState(), user: { ...ADMIN, role }, token: 't1', loading: false });

describe('role selectors', () => {
  it.each([
    ['admin', true, true],
    ['user', true, false],
    ['viewer', false, false],
  ] as const)('a signed-in %s may write: %s, is admin: %s', (role, canWrite, admin) => {
    const state = signedInAs(role);
    expect(selectCanWrite(state)).toBe(canWrite);
    expect(selectIsAdmin(state)).toBe(admin);
  });
});
