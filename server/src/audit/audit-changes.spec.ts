import { SECRET_MASK } from '@vigil/proto';
import { channelMask, channelSnapshot } from '../notifications/notifications-audit';
import { monitorMask } from '../monitors/monitor-audit';
import { changesOf, SECRET } from './audit-changes';

describe('changesOf', () => {
  it('lists only the fields that changed, with before and after', () => {
    expect(changesOf({ name: 'a', interval: 60, tags: ['x'] }, { name: 'b', interval: 60, tags: ['x'] })).toEqual({
      name: { before: 'a', after: 'b' },
    });
  });

  it('answers null when nothing changed, whatever the key order of objects', () => {
    expect(changesOf({ headers: { a: '1', b: '2' } }, { headers: { b: '2', a: '1' } })).toBeNull();
  });

  it('lists the fields holding a value on creation and deletion', () => {
    expect(changesOf(null, { name: 'a', body: null, tags: [] })).toEqual({ name: { after: 'a' } });
    expect(changesOf({ name: 'a', email: '' }, null)).toEqual({ name: { before: 'a' } });
  });

  it('records a secret field only as changed', () => {
    const mask = (field: string, value: unknown) => (field === 'token' ? SECRET : value);
    expect(changesOf({ token: 'old' }, { token: 'new' }, mask)).toEqual({ token: { secret: true } });
    expect(changesOf(null, { token: 'new' }, mask)).toEqual({ token: { secret: true } });
    expect(changesOf({ token: 'same' }, { token: 'same' }, mask)).toBeNull();
  });
});

describe('monitorMask', () => {
  it.each([
    ['url', 'https://admin:hunter2@example.com/a', 'https://admin:hunter3@example.com/a'],
    ['connection_string', 'postgres://u:hunter2@db/x', 'postgres://u:hunter3@db/x'],
    ['headers', { Authorization: 'Bearer hunter2' }, { Authorization: 'Bearer hunter3' }],
  ])('records a change of the credentials in %s without them', (field, before, after) => {
    const changes = changesOf({ [field]: before }, { [field]: after }, monitorMask);
    expect(changes).toEqual({ [field]: { secret: true } });
    expect(JSON.stringify(changes)).not.toMatch(/hunter/);
  });

  it('keeps what is not a credential readable and masks the rest', () => {
    const changes = changesOf({ url: 'https://a:hunter2@one.example/' }, { url: 'https://a:hunter2@two.example/' }, monitorMask);
    expect(JSON.stringify(changes)).toContain('two.example');
    expect(JSON.stringify(changes)).not.toContain('hunter2');
  });

  it.each(['body', 'message', 'push_token'])('never records the values of %s', (field) => {
    expect(changesOf({ [field]: '{"password":"hunter2"}' }, { [field]: 'x' }, monitorMask)).toEqual({ [field]: { secret: true } });
  });
});

describe('channelMask', () => {
  it('records secret config fields only as changed and keeps the others', () => {
    const before = channelSnapshot({
      name: 'T',
      type: 'telegram',
      enabled: true,
      language: 'en-US',
      config: { botToken: 'hunter2', chatId: '1' },
    });
    const after = channelSnapshot({
      name: 'T',
      type: 'telegram',
      enabled: true,
      language: 'en-US',
      config: { botToken: 'hunter3', chatId: '2' },
    });
    const changes = changesOf(before, after, channelMask('telegram'));
    expect(changes).toEqual({ 'config.botToken': { secret: true }, 'config.chatId': { before: '1', after: '2' } });
    expect(JSON.stringify(changes)).not.toMatch(/hunter|\u2022/);
  });

  it('masks the credentials of a URL field that is not itself a secret', () => {
    const url = (password: string) => `https://user:${password}@ntfy.example.com`;
    const snapshot = (server: string) =>
      channelSnapshot({ name: 'N', type: 'ntfy', enabled: true, language: 'en-US', config: { serverUrl: server, topic: 't' } });
    const changes = changesOf(snapshot('https://ntfy.sh'), snapshot(url('hunter2')), channelMask('ntfy'));
    expect(JSON.stringify(changes)).not.toContain('hunter2');
    expect(JSON.stringify(changes)).toContain(SECRET_MASK);
  });
});
