import type { ClientToServerEvents, Room, ServerToClientEvents } from '@vigil/proto';
import { io, type Socket } from 'socket.io-client';
import { useAuthStore } from '../features/auth/store';
import { pushHandlers } from './handlers';
import { useRealtimeStore } from './store';

type VigilSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: VigilSocket | null = null;
let socketToken: string | null = null;
/** Rooms wanted by mounted screens, with how many screens want each; re-joined after every reconnect. */
const rooms = new Map<Room, number>();

function join(target: VigilSocket, room: Room): void {
  target.emit('subscribe', room, () => undefined);
}

function connect(token: string | null): void {
  socket?.removeAllListeners();
  socket?.disconnect();
  socketToken = token;
  // Same origin, default path /socket.io; anonymous when signed out.
  const next: VigilSocket = io({ auth: token ? { token } : {}, autoConnect: false });
  const handlers = pushHandlers();
  next.on('users.changed', handlers['users.changed']);
  next.on('monitor.checked', handlers['monitor.checked']);
  next.on('monitor.status_changed', handlers['monitor.status_changed']);
  next.on('monitors.changed', handlers['monitors.changed']);
  next.on('agent.reported', handlers['agent.reported']);
  next.on('agent.status_changed', handlers['agent.status_changed']);
  next.on('agents.changed', handlers['agents.changed']);
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
    // when it restarts: come back then too (with jitter, so a room full of screens does not return at once),
    // unless the server said the credentials were refused.
    if (reason === 'io server disconnect' && !refused) {
      setTimeout(() => socket === next && !next.connected && next.connect(), 1_000 + Math.random() * 2_000);
    }
  });
  next.on('connect_error', () => useRealtimeStore.setState({ status: 'offline' }));
  socket = next;
  useRealtimeStore.setState({ status: 'connecting' });
  next.connect();
}

/**
 * Opens the live socket once authentication has settled and reopens it whenever the token changes (login, logout,
 * password change), so the server always sees the current identity. Returns a function that closes it.
 */
export function startRealtime(): () => void {
  const sync = () => {
    const { token, loading } = useAuthStore.getState();
    if (loading) return;
    if (socket && token === socketToken) return;
    connect(token);
  };
  sync();
  const unsubscribe = useAuthStore.subscribe(sync);
  return () => {
    unsubscribe();
    socket?.removeAllListeners();
    socket?.disconnect();
    socket = null;
    socketToken = null;
    useRealtimeStore.setState({ status: 'offline' });
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
