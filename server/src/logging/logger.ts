import type { LoggerService } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import pino, { type DestinationStream, type Level, type Logger as Pino } from 'pino';
import pretty from 'pino-pretty';
import { currentRequestId } from '../common/request-context';
import type { LogFormat, LogLevel } from '../config/config';

/** Nest's levels as pino names them: Nest's `log` is pino's `info`, `verbose` its `trace`. */
const PINO_LEVELS: Record<LogLevel, Level> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/** Nest's own start-up lines (one per module, route and socket message): only wanted when debugging. */
const START_UP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'WebSocketsController',
  'NestApplication',
]);

export interface LogOptions {
  logLevel: LogLevel;
  logFormat: LogFormat;
}

export interface Logs {
  /** The one pino logger every line goes through. */
  root: Pino;
  /** The same logger as Nest's `LoggerService`, so every `new Logger(Name)` writes through it. */
  nest: LoggerService;
}

/** nestjs-pino's PinoLogger over our own root (not a module-wide one), with no request scope of its own. */
class RootPinoLogger extends PinoLogger {
  constructor(private readonly root: Pino) {
    super({ pinoHttp: { logger: root } });
  }

  override get logger(): Pino {
    return this.root;
  }
}

/** nestjs-pino's Nest logger (the context becomes `module`), with Nest's start-up lines moved down to debug. */
class NestLogger extends NestPinoLogger {
  override log(message: unknown, ...params: unknown[]): void {
    const context = params.at(-1);
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) super.debug(message, ...params);
    else super.log(message, ...params);
  }
}

/**
 * The server's logs: one object per line with `time`, `level`, `module`, `message` and, inside a request's handler,
 * its `requestId`; or the same lines made readable for a terminal. Written synchronously (standard output by default),
 * so the lines before an exit are never lost.
 */
export function createLogs(options: LogOptions, sink: number | DestinationStream = 1): Logs {
  const root = pino(
    {
      level: PINO_LEVELS[options.logLevel],
      base: null,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: errorFields },
      // Lines a handler writes carry its request's id without each call naming it.
      mixin: (fields) => {
        if ('requestId' in fields) return {};
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    options.logFormat === 'json' ? jsonOutput(sink) : prettyOutput(sink),
  );
  const params = { renameContext: 'module' };
  return { root, nest: new NestLogger(new RootPinoLogger(root), params) };
}

/**
 * An error as logs show it: its name, sentence, stack and code. Never the other properties a library hangs on it:
 * TypeORM's `QueryFailedError` carries the statement's parameters, which can be a monitor's or a channel's secrets.
 */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { type: error.name, message: error.message, stack: error.stack, ...(typeof code === 'string' ? { code } : {}) };
}

function jsonOutput(sink: number | DestinationStream): DestinationStream {
  return typeof sink === 'number' ? pino.destination({ dest: sink, sync: true }) : sink;
}

/** `[time] LEVEL: [Module] message {other fields}`, one line each; colours only on a terminal. */
function prettyOutput(sink: number | DestinationStream): DestinationStream {
  return pretty({
    destination: sink,
    sync: true,
    messageKey: 'message',
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    messageFormat: '{if module}[{module}] {end}{message}',
    // The module leads the message, and an access line's own fields are said in its message.
    ignore: 'module,method,path,status,durationMs',
    singleLine: true,
  });
}
