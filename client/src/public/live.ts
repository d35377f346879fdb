import type { ClientToServerEvents, Room, ServerToClientEvents } from '@vigil/proto';
import { io, type Socket } from 'socket.io-client';
import type { PageStore } from './pageStore';

/** While the socket is down the page is read this often (the spec's refresh interval), as the operator app does. */
export const POLL_MS = 60_000;

/** Spread over a few seconds, so a room full of visitors does not come back at once. */
const jitter = (base: number) => base + Math.random() * 2_000;

type PageSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * Follows a page live: an anonymous socket joins `status:<slug>` (again after every reconnect), pushes go to the
 * store, and the page is read again after a reconnect (pushes may have been missed) and every minute while offline.
 * Returns a function that stops it all.
 */
export function followPage(store: PageStore): () => void {
  const room: Room = `status:${store.slug}`;
  // Same origin, default path; never the operator's token: the page is public (or unlocked by its cookie).
  const socket: PageSocket = io({ auth: {}, autoConnect: false });
  let connectedBefore = false;
  let poll: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  const startPolling = () => {
    poll ??= setInterval(() => void store.load({ quiet: true }), POLL_MS);
  };
  const stopPolling = () => {
    if (poll) clearInterval(poll);
    poll = null;
  };

  socket.on('status.page_item', (event) => store.applyItem(event));
  socket.on('status.page_changed', (event) => {
    if (event.slug === store.slug) store.applyChanged();
  });
  socket.on('connect', () => {
    stopPolling();
    store.setConnected(true);
    socket.emit('subscribe', room, () => undefined);
    if (connectedBefore) void store.load({ quiet: true });
    connectedBefore = true;
  });
  socket.on('disconnect', (reason) => {
    store.setConnected(false);
    startPolling();
    // socket.io reconnects by itself after a lost connection, but not when the server closed the socket (a restart).
    if (reason === 'io server disconnect') setTimeout(() => !stopped && !socket.connected && socket.connect(), jitter(1_000));
  });
  socket.on('connect_error', () => {
    store.setConnected(false);
    startPolling();
  });
  socket.connect();

  return () => {
    stopped = true;
    stopPolling();
    socket.removeAllListeners();
    socket.disconnect();
    store.setConnected(false);
  };
}
