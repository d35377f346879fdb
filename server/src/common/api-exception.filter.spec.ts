import { BadRequestException, HttpStatus, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { MESSAGES } from '@vigil/proto';
import { conflict, tooManyRequests } from './api-exception';
import { toApiError } from './api-exception.filter';
import { ParseIdPipe } from './parse-id.pipe';

describe('toApiError', () => {
  it('keeps the status and catalogued message of our own exceptions', () => {
    expect(toApiError(conflict('auth.usernameExists'))).toEqual({
      status: HttpStatus.CONFLICT,
      body: { success: false, message: 'Username already exists', code: 'auth.usernameExists' },
    });
    expect(toApiError(tooManyRequests('auth.tooManyAttempts')).status).toBe(429);
  });

  it.each([
    [new NotFoundException(), 404, 'request.notFound'],
    [new PayloadTooLargeException(), 413, 'request.bodyTooLarge'],
    [new BadRequestException(), 400, 'validation.failed'],
  ] as const)('gives framework errors a generic text (%s)', (error, status, code) => {
    expect(toApiError(error)).toEqual({ status, body: { success: false, message: MESSAGES[code], code } });
  });

  it('hides the details of an unexpected error behind a request id', () => {
    const { status, body } = toApiError(new Error('connection string postgres://secret@db'), 'req-1');
    expect(status).toBe(500);
    expect(body).toEqual({
      success: false,
      message: MESSAGES['request.internalError'],
      code: 'request.internalError',
      requestId: 'req-1',
    });
    expect(JSON.stringify(body)).not.toContain('secret');
  });
});

describe('ParseIdPipe', () => {
  const sut = new ParseIdPipe();

  it.each(['1', '42', '999999999'])('accepts %s', (value) => {
    expect(sut.transform(value)).toBe(Number(value));
  });

  it.each(['0', '-1', 'abc', '1.5', '1e3', '', '0x10', '12abc', '1234567890'])("refuses %j with 'invalid id'", (value) => {
    expect(() => sut.transform(value)).toThrow(MESSAGES['request.invalidId']);
  });
});
