import { ConsoleLogger, Logger } from '@nestjs/common';
import { Writable } from 'node:stream';
import { withCaller } from '../common/request-context';
import { createLogs, type LogOptions } from './logger';

/** The logs of `options`, written to memory. */
function capture(options: LogOptions) {
  let text = '';
  const sink = new Writable({ write: (chunk, _encoding, done) => ((text += String(chunk)), done()) });
  const logs = createLogs(options, sink);
  Logger.overrideLogger(logs.nest);
  return {
    logs,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const JSON_LOGS: LogOptions = { logLevel: 'log', logFormat: 'json' };

describe('createLogs', () => {
  afterEach(() => Logger.overrideLogger(new ConsoleLogger()));

  it("writes a Nest Logger's line as one JSON object with time, level, module and message", () => {
    const sut = capture(JSON_LOGS);
    new Logger('MonitorScheduler').log('Scheduled 3 monitors');
    expect(sut.text().split('\n')).toHaveLength(2);
    const [line] = sut.lines();
    expect(line).toEqual({ time: expect.any(String), level: 'info', module: 'MonitorScheduler', message: 'Scheduled 3 monitors' });
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
  });

  it('keeps the stack of an error logged the way Nest logs errors', () => {
    const sut = capture(JSON_LOGS);
    const error = new Error('boom');
    new Logger('Dispatcher').error('Delivery failed', error.stack);
    expect(sut.lines()).toEqual([
      expect.objectContaining({
        level: 'error',
        module: 'Dispatcher',
        message: 'Delivery failed',
        err: expect.objectContaining({ stack: error.stack }),
      }),
    ]);
  });

  it('writes an error by its name, sentence, stack and code only, never the values a library hangs on it', () => {
    const sut = capture(JSON_LOGS);
    const error = Object.assign(new Error('duplicate key value violates unique constraint'), {
      name: 'QueryFailedError',
      code: '23505',
      query: 'INSERT INTO channels (config) VALUES ($1)',
      parameters: ['{"token":"bot-secret-123"}'],
    });
    new Logger('ApiExceptionFilter').error({ message: 'POST /api/channels failed', requestId: 'req-9', err: error });
    expect(sut.lines()).toEqual([
      expect.objectContaining({
        requestId: 'req-9',
        err: { type: 'QueryFailedError', message: error.message, stack: error.stack, code: '23505' },
      }),
    ]);
    expect(sut.text()).not.toMatch(/bot-secret-123|INSERT INTO/);
  });

  it('carries the fields of a line logged as an object', () => {
    const sut = capture(JSON_LOGS);
    new Logger('Agents').warn({ message: 'Agent 7 sent a bad report', agentId: 7 });
    expect(sut.lines()).toEqual([
      expect.objectContaining({ level: 'warn', module: 'Agents', message: 'Agent 7 sent a bad report', agentId: 7 }),
    ]);
  });

  it("names the request id of the handler's request on its lines", () => {
    const sut = capture(JSON_LOGS);
    withCaller({ requestId: 'req-42' }, () => new Logger('Audit').log('Recorded'));
    new Logger('Audit').log('Outside');
    expect(sut.lines().map((line) => line.requestId)).toEqual(['req-42', undefined]);
  });

  it("prints Nest's route mapping and module lines only at debug", () => {
    const quiet = capture(JSON_LOGS);
    quiet.logs.nest.log('Mapped {/api/monitors, GET} route', 'RouterExplorer');
    quiet.logs.nest.log('MonitorsModule dependencies initialized', 'InstanceLoader');
    expect(quiet.text()).toBe('');

    const debug = capture({ logLevel: 'debug', logFormat: 'json' });
    debug.logs.nest.log('Mapped {/api/monitors, GET} route', 'RouterExplorer');
    expect(debug.lines()).toEqual([expect.objectContaining({ level: 'debug', module: 'RouterExplorer' })]);
  });

  it.each([
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['log', ['error', 'warn', 'info']],
    ['debug', ['error', 'warn', 'info', 'debug']],
    ['verbose', ['error', 'warn', 'info', 'debug', 'trace']],
  ] as const)('at LOG_LEVEL=%s writes %j', (logLevel, levels) => {
    const sut = capture({ logLevel, logFormat: 'json' });
    const logger = new Logger('Levels');
    logger.error('e');
    logger.warn('w');
    logger.log('l');
    logger.debug('d');
    logger.verbose('v');
    expect(sut.lines().map((line) => line.level)).toEqual(levels);
  });

  it('writes the pretty format as one readable line per entry, module and message first', () => {
    const sut = capture({ logLevel: 'log', logFormat: 'pretty' });
    new Logger('Vigil').log('Listening on http://localhost:3000');
    withCaller({ requestId: 'req-7' }, () => new Logger('Audit').warn('Slow write'));
    const lines = sut.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: \[Vigil\] Listening on http:\/\/localhost:3000$/);
    expect(lines[1]).toMatch(/WARN: \[Audit\] Slow write .*"requestId":"req-7"/);
    expect(sut.text()).not.toContain('\u001b[');
  });
});
