import type { Socket } from 'node:net';
import { ProbeFailure } from '../../checkers/failure';

/** RFC 5321 allows 512 bytes per reply line; a few times that still fits real servers' long EHLO lines. */
export const REPLY_LINE_MAX = 2048;
/** A reply of more lines than this (an endless greeting) fails rather than being collected. */
export const REPLY_LINES_MAX = 100;
/** The part of a server's text an error quotes. */
const QUOTED_MAX = 200;

/** One SMTP reply: its code and its lines as sent (`250-SIZE 10240000`). */
export interface SmtpReply {
  code: number;
  lines: string[];
}

/** A reply's text without its codes, one line each (`SIZE 10240000`). */
export const replyTexts = (reply: SmtpReply): string[] => reply.lines.map((line) => line.slice(4));

/** Text a server sent, safe to show in the check history: printable, one line, short. */
export function quoted(text: string): string {
  const printable = text.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
  return printable.length > QUOTED_MAX ? `${printable.slice(0, QUOTED_MAX)}…` : printable;
}

/**
 * Reads SMTP replies off a socket, bounded: a line longer than REPLY_LINE_MAX or a reply of more than
 * REPLY_LINES_MAX lines fails at once, so a hostile server (an endless banner) costs a few kilobytes, not memory.
 * A reply is read only when asked for; whatever arrives early waits in `pending` (STARTTLS refuses it).
 */
export class SmtpReplies {
  private buffered = '';
  private lines: string[] = [];
  private failure: Error | null = null;
  private waiter: { resolve(reply: SmtpReply): void; reject(error: Error): void } | null = null;
  private readonly onData = (chunk: Buffer) => this.receive(chunk.toString('latin1'));
  private readonly onEnd = () => this.fail(new ProbeFailure('The SMTP server closed the connection'));
  private readonly onError = (error: Error) => this.fail(error);

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
  }

  /** Whether the server sent anything not yet read as a reply. */
  get pending(): boolean {
    return this.buffered !== '' || this.lines.length > 0;
  }

  /** The next whole reply; rejects when the connection ends or breaks a bound first. */
  next(): Promise<SmtpReply> {
    const ready = this.failure ? null : this.take();
    if (this.failure) return Promise.reject(this.failure);
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** Stops reading this socket (before its STARTTLS upgrade, or at the end). */
  detach(): void {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('error', this.onError);
  }

  private receive(text: string): void {
    if (this.failure) return;
    this.buffered += text;
    let newline: number;
    while ((newline = this.buffered.indexOf('\n')) !== -1) {
      const line = this.buffered.slice(0, newline).replace(/\r$/, '');
      this.buffered = this.buffered.slice(newline + 1);
      if (line.length > REPLY_LINE_MAX) return this.fail(tooLong());
      if (!/^\d{3}([ -]|$)/.test(line)) return this.fail(new ProbeFailure(`Not an SMTP reply: "${quoted(line)}"`));
      this.lines.push(line);
      if (this.lines.length > REPLY_LINES_MAX) return this.fail(new ProbeFailure(`The SMTP reply is longer than ${REPLY_LINES_MAX} lines`));
    }
    if (this.buffered.length > REPLY_LINE_MAX) return this.fail(tooLong());
    if (this.waiter) {
      const reply = this.take();
      if (reply) this.settle((waiter) => waiter.resolve(reply));
    }
  }

  /** The first whole reply among the lines read (its last line has a space or nothing after the code); null: none yet, or it broke a rule (failed). */
  private take(): SmtpReply | null {
    const last = this.lines.findIndex((line) => line[3] !== '-');
    if (last === -1) return null;
    const lines = this.lines.splice(0, last + 1);
    const code = Number(lines[0].slice(0, 3));
    if (lines.some((line) => Number(line.slice(0, 3)) !== code)) {
      this.fail(new ProbeFailure(`Not an SMTP reply: mixed codes in "${quoted(lines.join(' '))}"`));
      return null;
    }
    return { code, lines };
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.buffered = '';
    this.lines = [];
    this.settle((waiter) => waiter.reject(error));
  }

  private settle(act: (waiter: NonNullable<SmtpReplies['waiter']>) => void): void {
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) act(waiter);
  }
}

const tooLong = () => new ProbeFailure(`The SMTP server sent a line longer than ${REPLY_LINE_MAX} bytes`);
