import { ArgumentMetadata } from '@nestjs/common';
import { MESSAGES, MessageCode } from '@vigil/proto';
import { LoginDto } from '../auth/auth.dto';
import { CreateMonitorDto } from '../monitors/monitors.dto';
import { ListUsersQuery, UpdateUserDto } from '../users/users.dto';
import { CheckedBodyMessages, createValidationPipe } from './validation';

const sut = createValidationPipe();

async function codeOf(value: unknown, metadata: ArgumentMetadata): Promise<MessageCode | null> {
  try {
    await sut.transform(value, metadata);
    return null;
  } catch (error) {
    return (error as { getResponse(): { code: MessageCode } }).getResponse().code;
  }
}

const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'body', metatype });
const CHECKED: CheckedBodyMessages = { fields: { name: 'notifications.channelNameRequired' }, otherwise: 'notifications.configInvalid' };
/** What Nest passes for a @CheckedBody parameter: its data is the messages object (typed as a string by Nest). */
const checked = { type: 'custom', metatype: Object, data: CHECKED } as unknown as ArgumentMetadata;

describe('the shared text and null rules', () => {
  it.each<[string, unknown, ArgumentMetadata, MessageCode | null]>([
    [
      'a NUL in a DTO field, with its string message',
      { username: 'a\u0000', password: 'x' },
      body(LoginDto),
      'validation.usernameRequired',
    ],
    ['a lone surrogate in an optional email', { email: '\ud800@a.co' }, body(UpdateUserDto), 'validation.emailInvalid'],
    [
      'bad text in a header name nested in a DTO field',
      { name: 'n', url: 'http://a.test', headers: { 'X\ud800': 'v' } },
      body(CreateMonitorDto),
      'monitors.headersInvalid',
    ],
    ['a NUL in a query string', { search: '\u0000' }, { type: 'query', metatype: ListUsersQuery }, 'validation.failed'],
    ['a NUL in a named route parameter', '1\u0000', { type: 'param', metatype: Number, data: 'id' }, 'validation.textInvalid'],
    ['bad text in a hand-checked body, named field', { name: 'x\udfff' }, checked, 'notifications.channelNameRequired'],
    ['bad text in a hand-checked body, other field', { config: { url: '\u0000' } }, checked, 'notifications.configInvalid'],
    [
      'bad text under a __proto__ key of a hand-checked body',
      JSON.parse('{"__proto__":"\\u0000"}'),
      checked,
      'notifications.configInvalid',
    ],
    ['bad text under a constructor key of a hand-checked body', { constructor: '\ud800' }, checked, 'notifications.configInvalid'],
    ['null for a required field', { username: null }, body(UpdateUserDto), 'validation.usernameRequired'],
    ['null for a role', { role: null }, body(UpdateUserDto), 'validation.roleInvalid'],
    [
      'null for a numeric monitor field',
      { name: 'n', url: 'http://a.test', interval: null },
      body(CreateMonitorDto),
      'monitors.intervalInvalid',
    ],
    ['null where the DTO documents it (email)', { email: null }, body(UpdateUserDto), null],
    ['null where the DTO documents it (monitor headers)', { name: 'n', url: 'http://a.test', headers: null }, body(CreateMonitorDto), null],
    ['clean Chinese text and emoji', { username: '状态😀', password: 'x' }, body(LoginDto), null],
  ])('answers %s', async (_, value, metadata, code) => {
    expect(await codeOf(value, metadata)).toBe(code);
  });

  it('leaves other custom parameters (the signed-in user, the address) alone', async () => {
    expect(await codeOf({ username: '\u0000' }, { type: 'custom', metatype: Object, data: undefined })).toBeNull();
  });

  it('answers with the catalogued text of the code', async () => {
    await expect(sut.transform({ password: '\u0000', username: 'a' }, body(LoginDto))).rejects.toMatchObject({
      response: { success: false, message: MESSAGES['validation.passwordRequired'], code: 'validation.passwordRequired' },
    });
  });
});
