import { ArgumentMetadata } from '@nestjs/common';
import { MESSAGES } from '@vigil/proto';
import { createValidationPipe } from '../common/validation';
import { CreateUserDto, UpdateUserDto } from './users.dto';

const pipe = createValidationPipe();
const validate = (metatype: ArgumentMetadata['metatype'], value: unknown) => pipe.transform(value, { type: 'body', metatype });

async function messageOf(metatype: ArgumentMetadata['metatype'], value: unknown): Promise<string | null> {
  try {
    await validate(metatype, value);
    return null;
  } catch (error) {
    return (error as { getResponse(): { message: string } }).getResponse().message;
  }
}

describe('user DTO validation', () => {
  it.each([
    [{ password: 'password1' }, MESSAGES['validation.usernameRequired']],
    [{ username: '', password: 'password1' }, MESSAGES['validation.usernameRequired']],
    [{ username: 'ab', password: 'password1' }, MESSAGES['validation.usernameFormat']],
    [{ username: 'has space', password: 'password1' }, MESSAGES['validation.usernameFormat']],
    [{ username: 'anna', password: 'short' }, MESSAGES['validation.passwordLength']],
    [{ username: 'anna' }, MESSAGES['validation.passwordRequired']],
    [{ username: 'anna', password: 'password1', email: 'nope' }, MESSAGES['validation.emailInvalid']],
    [{ username: 'anna', password: 'password1', role: 'root' }, MESSAGES['validation.roleInvalid']],
    [{ username: 'anna', password: 'password1', email: '' }, null],
    [{ username: ' anna ', password: 'password1', email: 'a@b.co', role: 'admin' }, null],
  ])('create %j → %s', async (body, message) => {
    expect(await messageOf(CreateUserDto, body)).toBe(message);
  });

  it('trims names, turns an empty email into none and drops unknown fields', async () => {
    const sut = (await validate(CreateUserDto, {
      username: ' anna ',
      password: 'password1',
      email: '  ',
      isAdmin: true,
    })) as CreateUserDto & { isAdmin?: boolean };
    expect(sut.username).toBe('anna');
    expect(sut.email).toBeNull();
    expect(sut.isAdmin).toBeUndefined();
  });

  it('accepts a partial update', async () => {
    expect(await messageOf(UpdateUserDto, { email: 'new@b.co' })).toBeNull();
    expect(await messageOf(UpdateUserDto, { username: 'x' })).toBe(MESSAGES['validation.usernameFormat']);
  });
});
