import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { MqttClient, type IClientOptions } from 'mqtt';
import { ProbeFailure } from '../../checkers/failure';

/** The largest payload a check accepts; a larger message fails the check instead of being buffered. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
/** A packet's limit: the payload plus room for its topic and packet id. */
const MAX_PACKET_BYTES = MAX_PAYLOAD_BYTES + 1024;
/** How long a polite DISCONNECT may take before the connection is cut. */
const CLOSE_GRACE_MS = 1000;

/** When the whole check must be over: every step waits at most until then. */
export class Deadline {
  private readonly at: number;

  constructor(readonly seconds: number) {
    this.at = performance.now() + seconds * 1000;
  }

  remaining(): number {
    return Math.max(1, Math.round(this.at - performance.now()));
  }
}

export interface SessionOptions {
  username?: string;
  password?: string;
  deadline: Deadline;
  /** Ends the transport under the MQTT stream (the socket, and the WebSocket on it). */
  destroy: () => void;
}

export interface ReceivedMessage {
  topic: string;
  payload: Buffer;
}

/**
 * One MQTT 3.1.1 connection over a stream already opened through the outbound policy: mqtt.js speaks the protocol,
 * never reconnects, and each step (CONNACK, SUBACK, the message) waits at most until the check's deadline. What the
 * broker sends is measured packet by packet before mqtt.js buffers it, so a huge message costs at most one read.
 */
export class MqttSession {
  private readonly client: MqttClient;
  /** The first failure the stream or the client reported; a later step rejects with it. */
  private failure: Error | null = null;
  private connected = false;
  private closed = false;

  constructor(
    stream: Duplex,
    private readonly options: SessionOptions,
  ) {
    stream.on('error', (error: Error) => this.fail(error));
    // Attached before mqtt.js pipes the stream, in the same tick: it sees every chunk first.
    stream.on(
      'data',
      packetSizeGuard(MAX_PACKET_BYTES, () => stream.destroy(new ProbeFailure(`MQTT message larger than ${MAX_PAYLOAD_BYTES / 1024} KiB`))),
    );
    const clientOptions: IClientOptions = {
      clientId: `vigil-${randomBytes(4).toString('hex')}`,
      username: options.username || undefined,
      password: options.password || undefined,
      protocolVersion: 4,
      clean: true,
      keepalive: 60,
      reconnectPeriod: 0,
      connectTimeout: options.deadline.remaining(),
      resubscribe: false,
    };
    this.client = new MqttClient(() => stream, clientOptions);
    this.client.on('error', (error) => this.fail(error));
    this.client.on('close', () => (this.closed = true));
  }

  /** Resolves once the broker accepted the connection (CONNACK 0). */
  async connect(): Promise<void> {
    await this.step('CONNACK', (resolve) => {
      const done = () => resolve(undefined);
      this.client.once('connect', done);
      return () => this.client.removeListener('connect', done);
    });
    this.connected = true;
  }

  /** Resolves once the broker granted the subscription (SUBACK). */
  subscribe(topic: string): Promise<void> {
    return this.step('SUBACK', (resolve, reject) => {
      this.client.subscribe(topic, { qos: 0 }, (error) =>
        error ? reject(new ProbeFailure(`The broker refused the subscription to ${topic}`)) : resolve(undefined),
      );
      return () => undefined;
    });
  }

  /** The next live message on the filter; retained ones are skipped, as Uptime Kuma does (they say nothing of now). */
  nextMessage(filter: string): Promise<ReceivedMessage> {
    return this.step(`message on ${filter}`, (resolve) => {
      const onMessage = (topic: string, payload: Buffer, packet: { retain?: boolean }) => {
        if (!packet.retain && topicMatches(filter, topic)) resolve({ topic, payload });
      };
      this.client.on('message', onMessage);
      return () => this.client.removeListener('message', onMessage);
    });
  }

  publish(topic: string, message: string): void {
    this.client.publish(topic, message, { qos: 0, retain: false });
  }

  /** Disconnects politely when connected, and cuts the transport after a short grace either way. */
  close(): void {
    const cut = setTimeout(this.options.destroy, this.connected ? CLOSE_GRACE_MS : 0);
    cut.unref();
    this.client.end(!this.connected, {}, () => {
      clearTimeout(cut);
      this.options.destroy();
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
  }

  /**
   * Waits for what `listen` resolves, failing on the first error, on the connection closing, or at the deadline
   * (`No <what> within N s`). `listen` returns how to stop listening.
   */
  private step<T>(what: string, listen: (resolve: (value: T) => void, reject: (error: unknown) => void) => () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const { deadline } = this.options;
      if (this.failure || this.closed)
        return reject(this.failure ?? new ProbeFailure(`Connection closed by the server before the ${what}`));
      let stop = () => undefined as void;
      const settle = (finish: () => void) => {
        clearTimeout(timer);
        this.client.removeListener('error', onError);
        this.client.removeListener('close', onClose);
        stop();
        finish();
      };
      const onError = (error: Error) => settle(() => reject(this.failure ?? error));
      const onClose = () => settle(() => reject(this.failure ?? new ProbeFailure(`Connection closed by the server before the ${what}`)));
      const timer = setTimeout(
        () => settle(() => reject(new ProbeFailure(`No ${what} within ${deadline.seconds} s`))),
        deadline.remaining(),
      );
      this.client.on('error', onError);
      this.client.once('close', onClose);
      stop = listen(
        (value) => settle(() => resolve(value)),
        (error) => settle(() => reject(error)),
      );
    });
  }
}

/** Whether a topic matches a subscription filter (`+` one level, `#` the rest). */
export function topicMatches(filter: string, topic: string): boolean {
  const wanted = filter.split('/');
  const levels = topic.split('/');
  for (const [index, level] of wanted.entries()) {
    if (level === '#') return true;
    if (index >= levels.length || (level !== '+' && level !== levels[index])) return false;
  }
  return wanted.length === levels.length;
}

/**
 * Follows MQTT's framing (a type byte, then the remaining length in up to four 7-bit bytes) over the chunks the broker
 * sends and calls `oversize` as soon as a packet announces more than `limit` bytes or a malformed length.
 */
export function packetSizeGuard(limit: number, oversize: () => void): (chunk: Buffer) => void {
  let state: 'type' | 'length' | 'body' = 'type';
  let length = 0;
  let lengthBytes = 0;
  let left = 0;
  let tripped = false;
  return (chunk) => {
    let index = 0;
    while (!tripped && index < chunk.length) {
      if (state === 'type') {
        index += 1;
        [state, length, lengthBytes] = ['length', 0, 0];
      } else if (state === 'length') {
        const byte = chunk[index++];
        length += (byte & 0x7f) * 128 ** lengthBytes++;
        if (length > limit || (byte & 0x80 && lengthBytes === 4)) {
          tripped = true;
          oversize();
        } else if (!(byte & 0x80)) {
          [state, left] = length === 0 ? ['type', 0] : ['body', length];
        }
      } else {
        const taken = Math.min(left, chunk.length - index);
        index += taken;
        left -= taken;
        if (left === 0) state = 'type';
      }
    }
  };
}
