import { type BrowserHandshakeAuth, type ClientToServerEvents, isMessageCode, type Room, type ServerToClientEvents } from '@vigil/proto';
import { io, type Socket } from 'socket.io-client';
import { useAuthStore } from '../features/auth/store';
import { displayKeyRefused, pushHandlers, type SocketRole } from './handlers';
import { useRealtimeStore } from './store';

type VigilSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: VigilSocket | null = null;
/** Who the open socket is; compared, never shown or logged (it holds the token or display key). */
let socketIdentity: string | null = null;
/** Set while a wall screen opened with a display key is mounted: the socket then uses the key, never the token. */
let displayKey: string | null = null;
let started = false;
/** Rooms wanted by mounted screens, with how many screens want each; re-joined after every reconnect. */
const rooms = new Map<Room, number>();

/** Spread over a few seconds, so a room full of screens does not come back at once. */
const jitter = (base: number) => base + Math.random() * 2_000;

function join(target: VigilSocket, room: Room): void {
  target.emit('subscribe', room, () => undefined);
}

/** A handshake the server refused (bad token or key), as opposed to a server that could not be reached. */
function isRefusal(error: Error): boolean {
  return isMessageCode((error as Error & { data?: { code?: unknown } }).data?.code);
}

function connect(auth: BrowserHandshakeAuth, role: SocketRole): void {
  socket?.removeAllListeners();
  socket?.disconnect();
  // Same origin, default path /socket.io; anonymous when signed out.
  const next: VigilSocket = io({ auth, autoConnect: false });
  const handlers = pushHandlers(role);
  next.on('users.changed', handlers['users.changed']);
  next.on('monitor.checked', handlers['monitor.checked']);
  next.on('monitor.status_changed', handlers['monitor.status_changed']);
  next.on('monitors.changed', handlers['monitors.changed']);
  next.on('monitor.location', handlers['monitor.location']);
  next.on('agent.reported', handlers['agent.reported']);
  next.on('agent.status_changed', handlers['agent.status_changed']);
  next.on('agents.changed', handlers['agents.changed']);
  next.on('wall.change', handlers['wall.change']);
  next.on('wall.changed', handlers['wall.changed']);
  next.on('wall.locations', handlers['wall.locations']);
  next.on('alert.changed', handlers['alert.changed']);
  next.on('incident.changed', handlers['incident.changed']);
  next.on('maintenance.changed', handlers['maintenance.changed']);
  let refused = false;
  next.on('auth.error', (event) => {
    refused = true;
    handlers['auth.error'](event);
  });
  next.on('connect', () => {
    useRealtimeStore.setState({ status: 'connected' });
    for (const room of rooms.keys()) join(next, room);
  });
  next.on('disconnect', (reason) => {
    useRealtimeStore.setState({ status: 'offline' });
    // socket.io reconnects by itself after a lost connection, but not when the server closed the socket, as it does
    // when it restarts: come back then too, unless the server said the credentials were refused.
    if (reason === 'io server disconnect' && !refused) {
      setTimeout(() => socket === next && !next.connected && next.connect(), jitter(1_000));
    }
  });
  next.on('connect_error', (error) => {
    useRealtimeStore.setState({ status: 'offline' });
    // socket.io does not retry a refused handshake. A wall screen must come back by itself, so unless its key is
    // really refused it tries again.
    if (role !== 'display' || !isRefusal(error)) return;
    void displayKeyRefused().then((rejected) => {
      if (!rejected) setTimeout(() => socket === next && !next.connected && next.connect(), jitter(5_000));
    });
  });
  socket = next;
  useRealtimeStore.setState({ status: 'connecting' });
  next.connect();
}

/** Opens or reopens the socket when the identity it should carry changed. */
function sync(): void {
  if (!started) return;
  if (displayKey !== null) {
    const identity = `display:${displayKey}`;
    if (socket && identity === socketIdentity) return;
    socketIdentity = identity;
    connect({ displayKey }, 'display');
    return;
  }
  const { token, loading } = useAuthStore.getState();
  if (loading) return;
  const identity = `session:${token ?? ''}`;
  if (socket && identity === socketIdentity) return;
  socketIdentity = identity;
  connect(token ? { token } : {}, 'session');
}

/**
 * Opens the live socket once authentication has settled and reopens it whenever the token changes (login, logout,
 * password change), so the server always sees the current identity. Returns a function that closes it.
 */
export function startRealtime(): () => void {
  started = true;
  sync();
  const unsubscribe = useAuthStore.subscribe(sync);
  return () => {
    unsubscribe();
    started = false;
    socket?.removeAllListeners();
    socket?.disconnect();
    socket = null;
    socketIdentity = null;
    useRealtimeStore.setState({ status: 'offline' });
  };
}

/**
 * Makes the socket a wall screen's: it connects with the display key instead of the session's token (so the session
 * expiring changes nothing) until the returned function gives the socket back to the session.
 */
export function connectWithDisplayKey(key: string): () => void {
  displayKey = key;
  sync();
  return () => {
    if (displayKey !== key) return;
    displayKey = null;
    sync();
  };
}

/** Asks for a room's pushes while a screen needs them; the returned function gives the room back. */
export function joinRoom(room: Room): () => void {
  rooms.set(room, (rooms.get(room) ?? 0) + 1);
  if (socket?.connected) join(socket, room);
  return () => {
    const count = (rooms.get(room) ?? 1) - 1;
    if (count > 0) {
      rooms.set(room, count);
      return;
    }
    rooms.delete(room);
    if (socket?.connected) socket.emit('unsubscribe', room, () => undefined);
  };
}
