import type { Socket } from 'node:net';
import { timeoutError } from './failure';

/**
 * Opens a socket and waits until it is `ready` ('connect', or 'secureConnect' after a TLS handshake); fails on its
 * error or after `timeoutMs`, destroying it. The caller destroys the socket it gets.
 */
export function openSocket<S extends Socket>(open: () => S, ready: 'connect' | 'secureConnect', timeoutMs: number): Promise<S> {
  return new Promise<S>((resolve, reject) => {
    const socket = open();
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(timeoutError()), timeoutMs);
    // Stays attached: an error after the handshake (a reset while closing) must not go unhandled.
    socket.on('error', fail);
    socket.once(ready, () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}
