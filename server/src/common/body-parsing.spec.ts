import { bodyLimitFor } from './body-parsing';

describe('bodyLimitFor', () => {
  it.each([
    ['/api/auth/login', 'credentials'],
    ['/api/auth/register', 'account'],
    ['/api/users', 'account'],
    ['/api/users/7', 'account'],
    ['/api/users/7/change-password', 'account'],
    ['/api/notifications/channels/3/test', 'medium'],
    ['/api/notifications/settings', 'medium'],
    ['/api/agents/enroll', 'medium'],
    ['/api/agents/status', 'large'],
    ['/api/monitors', 'large'],
    ['/api/monitors/5', 'large'],
    ['/api/status/config', 'large'],
    ['/api/monitors/5/pause', 'default'],
    ['/api/settings', 'default'],
    ['/api/agents/5', 'default'],
    ['/api/some/new/route', 'default'],
  ])('gives %s the %s limit', (path, limit) => {
    expect(bodyLimitFor(path)).toBe(limit);
  });
});
