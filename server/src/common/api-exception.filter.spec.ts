import { BadRequestException, HttpStatus, Logger, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { MESSAGES } from '@vigil/proto';
import { QueryFailedError } from 'typeorm';
import { ApiException, conflict, tooManyRequests } from './api-exception';
import { renderLoggedApiError, toApiError } from './api-exception.filter';
import { ParseIdPipe, ParseRouteIdPipe } from './parse-id.pipe';

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

describe('toApiError for database faults', () => {
  const pgError = (code: string, message = 'database error') => Object.assign(new Error(message), { code });
  const unavailable = {
    status: 503,
    body: { success: false, message: MESSAGES['request.databaseUnavailable'], code: 'request.databaseUnavailable' },
    retryAfter: 5,
  };

  it.each([
    ['refused connection', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['reset connection', pgError('ECONNRESET', 'read ECONNRESET')],
    ['socket timeout', pgError('ETIMEDOUT')],
    ['every address refused (AggregateError)', new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')])],
    ['pool acquire timeout', new Error('timeout exceeded when trying to connect')],
    ['connect timeout', new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') })],
    ['lost connection', new Error('Connection terminated unexpectedly')],
    ['dead link cut by the read timeout', new Error('Query read timeout')],
    ['broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['admin shutdown 57P01', pgError('57P01', 'terminating connection due to administrator command')],
    ['cannot connect now 57P03', pgError('57P03', 'the database system is starting up')],
    ['connection failure 08006', pgError('08006')],
    ['disk full 53100', pgError('53100', 'could not extend file: No space left on device')],
    ['too many connections 53300', pgError('53300')],
    ['statement timeout 57014', pgError('57014', 'canceling statement due to statement timeout')],
    ['read-only database 25006', pgError('25006', 'cannot execute INSERT in a read-only transaction')],
    ['a TypeORM QueryFailedError wrapping it', new QueryFailedError('SELECT 1', [], pgError('57P01'))],
  ])('answers 503 with a retry hint for %s', (_name, error) => {
    expect(toApiError(error, 'req-1')).toEqual(unavailable);
  });

  it.each([
    ['a unique violation', pgError('23505')],
    ['a syntax error', new QueryFailedError('SELEC 1', [], pgError('42601'))],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ])('still answers 500 for %s, which is our bug', (_name, error) => {
    expect(toApiError(error, 'req-1').status).toBe(500);
  });

  it('passes Retry-After of a 429 on', () => {
    expect(toApiError(tooManyRequests('auth.tooManyAttempts', 30)).retryAfter).toBe(30);
  });
});

describe('ParseIdPipe', () => {
  const sut = new ParseIdPipe();

  it.each(['1', '42', '999999999', '2147483647'])('accepts %s', (value) => {
    expect(sut.transform(value)).toBe(Number(value));
  });

  it.each(['0', '-1', 'abc', '1.5', '1e3', '', '0x10', '12abc', '2147483648'])("refuses %j with 'invalid id'", (value) => {
    expect(() => sut.transform(value)).toThrow(MESSAGES['request.invalidId']);
  });
});

describe('ParseRouteIdPipe', () => {
  const sut = new ParseRouteIdPipe();

  it.each(['abc', 'test', '12abc', 'search'])('answers the word %j as a path that is not a route (404)', (value) => {
    expect(() => sut.transform(value)).toThrow(expect.objectContaining({ status: 404 }));
  });

  it.each(['0', '-1', '1.5', '1e3', '0x10', '2147483648'])("refuses the malformed number %j with 'invalid id'", (value) => {
    expect(() => sut.transform(value)).toThrow(MESSAGES['request.invalidId']);
  });

  it('accepts an id', () => {
    expect(sut.transform('42')).toBe(42);
  });
});

describe('renderLoggedApiError', () => {
  const request = { method: 'GET', url: '/api/health', requestId: 'req-1' };
  const logger = () => {
    const lines: string[] = [];
    const fields: object[] = [];
    const sink = new Logger('test');
    const record = (level: string) => (line: { message: string }) => void (lines.push(`${level}: ${line.message}`), fields.push(line));
    jest.spyOn(sink, 'error').mockImplementation(record('error'));
    jest.spyOn(sink, 'warn').mockImplementation(record('warn'));
    return { sink, lines, fields };
  };

  it("logs no stack for a 503 we answer on purpose (health's), which logs its own changes", () => {
    const { sink, lines } = logger();
    const rendered = renderLoggedApiError(new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'health.databaseWritesFailing'), request, sink);
    expect(rendered.status).toBe(503);
    expect(lines).toEqual([]);
  });

  it('still logs an unexpected error with its stack, under the request id', () => {
    const { sink, lines, fields } = logger();
    const error = new TypeError('boom');
    renderLoggedApiError(error, request, sink);
    expect(lines).toEqual(['error: GET /api/health failed [req-1]']);
    expect(fields).toEqual([expect.objectContaining({ requestId: 'req-1', err: error })]);
  });
});
