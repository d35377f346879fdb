import { ApiException } from '../common/api-exception';
import { PUSH_MESSAGE_MAX, readPushQuery } from './push.dto';

const read = (search: string) => readPushQuery(new URLSearchParams(search));

function refusal(search: string): string {
  try {
    read(search);
  } catch (error) {
    if (error instanceof ApiException) return error.code;
    throw error;
  }
  throw new Error(`${search} was accepted`);
}

describe('readPushQuery', () => {
  it.each([
    ['', {}],
    ['status=up&msg=OK&ping=', { status: 'up', msg: 'OK' }],
    ['status=%20DOWN%20&msg=disk%20full&ping=12.4', { status: 'down', msg: 'disk full', ping: 12.4 }],
    ['status=&ping=%20', {}],
    ['msg=', { msg: '' }],
    ['msg=a+b', { msg: 'a b' }],
    ['ping=0', { ping: 0 }],
    ['ping=1e3', { ping: 1000 }],
    ['ping=3600000', { ping: 3_600_000 }],
    ['other=1&status=up', { status: 'up' }],
    [`msg=${'x'.repeat(PUSH_MESSAGE_MAX)}`, { msg: 'x'.repeat(PUSH_MESSAGE_MAX) }],
  ])('reads %j', (search, query) => {
    expect(read(search)).toEqual(query);
  });

  it.each([
    ['status=sideways', 'push.statusInvalid'],
    ['status=up&status=down', 'push.statusInvalid'],
    [`msg=${'x'.repeat(PUSH_MESSAGE_MAX + 1)}`, 'push.messageTooLong'],
    ['msg=a&msg=b', 'push.messageTooLong'],
    ['ping=fast', 'push.pingInvalid'],
    ['ping=-1', 'push.pingInvalid'],
    ['ping=3600001', 'push.pingInvalid'],
    ['ping=Infinity', 'push.pingInvalid'],
    ['ping=1&ping=2', 'push.pingInvalid'],
    // The first refused field in the order status, msg, ping speaks.
    ['ping=x&status=x', 'push.statusInvalid'],
    // Bad text anywhere: a known field's own message, any other as bad text.
    ['msg=a%00b', 'push.messageTooLong'],
    ['status=%ED%A0%80', 'push.statusInvalid'],
    ['other=%00', 'validation.textInvalid'],
    ['%00=1', 'validation.textInvalid'],
  ])('refuses %j with %s', (search, code) => {
    expect(refusal(search)).toBe(code);
  });
});
