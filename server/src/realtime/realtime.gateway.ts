import { Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
  WebSocketServer,
} from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { ADMINS_ROOM, ClientToServerEvents, MESSAGES, MessageCode, ServerToClientEvents, SubscribeResult } from '@vigil/proto';
import type { AuthUser } from '../common/decorators';
import { SessionService } from '../auth/session.service';
import { CredentialResolver } from '../auth/credentials';
import { PageAccess } from '../status-pages/page-access';
import { displayRoom, isRoomAllowed, pageRoomSlug, SocketAccess, userRoom } from './rooms';
import { atExpiry } from './session-expiry';

interface SocketData {
  /** Null for an anonymous visitor of the public status page or a wall screen. */
  user: AuthUser | null;
  token: string | null;
  /** When the token expires (ms since the epoch); the socket is closed then. */
  expiresAt: number | null;
  /** The display key a wall screen connected with. */
  displayKeyId: number | null;
}

export type BrowserServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type BrowserSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/**
 * Browser sockets on the API's own port. The handshake is authenticated once by the credential resolver (JWT in
 * `auth.token`, or a wall's `auth.displayKey`; never an API key); a bad one is refused before the connection opens, no token makes an anonymous socket that may join only public rooms. A
 * signed-in socket lives as long as its token: at the token's expiry it is told so and closed.
 */
@WebSocketGateway({ serveClient: false })
export class RealtimeGateway implements OnGatewayInit<BrowserServer>, OnGatewayConnection<BrowserSocket> {
  private readonly logger = new Logger(RealtimeGateway.name);

  @WebSocketServer()
  server!: BrowserServer;

  constructor(
    private readonly sessions: SessionService,
    private readonly credentials: CredentialResolver,
    private readonly pages: PageAccess,
  ) {}

  afterInit(server: BrowserServer): void {
    server.use((socket, next) => {
      this.authenticate(socket).then(
        (refusal) => (refusal ? next(authError(...refusal)) : next()),
        (error: unknown) => {
          // Not a verdict on the credentials (e.g. the database is still starting): a code of its own, so clients retry.
          this.logger.error(`Socket handshake failed: ${(error as Error).message}`);
          next(authError('request.unavailable'));
        },
      );
    });
  }

  /** Closes a signed-in socket when its token expires (an HTTP request would answer 401 from then on). */
  handleConnection(socket: BrowserSocket): void {
    if (socket.data.expiresAt === null) return;
    const cancel = atExpiry(socket.data.expiresAt, () => {
      socket.emit('auth.error', { message: MESSAGES['auth.tokenInvalid'], code: 'auth.tokenInvalid' });
      socket.disconnect(true);
    });
    socket.once('disconnect', cancel);
  }

  @SubscribeMessage('subscribe')
  async subscribe(@ConnectedSocket() socket: BrowserSocket, @MessageBody() room: unknown): Promise<SubscribeResult> {
    if (!isRoomAllowed(room, accessOf(socket))) {
      return { ok: false, error: MESSAGES['auth.forbidden'] };
    }
    // A status page's room: the page must exist, and a password page opens only with its unlock cookie.
    const slug = pageRoomSlug(room);
    const refusal = slug === null ? null : await this.pages.joinRefusal(slug, socket.handshake.headers.cookie);
    if (refusal) return { ok: false, error: MESSAGES[refusal] };
    await socket.join(room);
    return { ok: true };
  }

  @SubscribeMessage('unsubscribe')
  async unsubscribe(@ConnectedSocket() socket: BrowserSocket, @MessageBody() room: unknown): Promise<SubscribeResult> {
    if (typeof room !== 'string' || room === ADMINS_ROOM || room === socket.id || /^(user|display):/.test(room)) {
      return { ok: false, error: MESSAGES['auth.forbidden'] };
    }
    await socket.leave(room);
    return { ok: true };
  }

  /**
   * Re-checks this instance's sockets of one user after their account changed (every instance does so for its own:
   * a remote socket is a copy whose data cannot be changed): a deleted user, or one whose tokens were revoked by a
   * password or role change, is told why and disconnected; a surviving socket gets its user and admin room right.
   */
  async revalidateUser(userId: number): Promise<void> {
    const sockets = await this.server.local.in(userRoom(userId)).fetchSockets();
    for (const socket of sockets) {
      const user = socket.data.token ? await this.sessions.resolve(socket.data.token) : null;
      if (!user) {
        socket.emit('auth.error', { message: MESSAGES['auth.tokenInvalid'], code: 'auth.tokenInvalid' });
        socket.disconnect(true);
        continue;
      }
      socket.data.user = user;
      if (user.role === 'admin') socket.join(ADMINS_ROOM);
      else socket.leave(ADMINS_ROOM);
    }
  }

  /** Null when the socket may connect, else why not (and, for a limit, the seconds to wait). */
  private async authenticate(socket: BrowserSocket): Promise<[MessageCode, number?] | null> {
    socket.data.token = null;
    socket.data.user = null;
    socket.data.expiresAt = null;
    socket.data.displayKeyId = null;
    const credential = await this.credentials.fromHandshake(socket.handshake);
    switch (credential.kind) {
      case 'none':
        // Anonymous visitors start in no room but may ask for the public ones.
        return null;
      case 'display':
        socket.data.displayKeyId = credential.keyId;
        await socket.join(displayRoom(credential.keyId));
        return null;
      case 'session': {
        const { user, token, expiresAt } = credential;
        socket.data.token = token;
        socket.data.user = user;
        socket.data.expiresAt = expiresAt;
        await socket.join(userRoom(user.id));
        if (user.role === 'admin') await socket.join(ADMINS_ROOM);
        return null;
      }
      case 'refused':
        return credential.retryAfter === undefined ? [credential.code] : [credential.code, credential.retryAfter];
      case 'apiKey':
        // The resolver refuses keys on sockets already; a key never makes a socket.
        return ['apiKeys.socketRefused'];
    }
  }

  /** Drops the wall screens opened with a revoked display key. */
  async dropDisplay(keyId: number): Promise<void> {
    const sockets = await this.server.in(displayRoom(keyId)).fetchSockets();
    for (const socket of sockets) {
      socket.emit('auth.error', { message: MESSAGES['wall.keyInvalid'], code: 'wall.keyInvalid' });
      socket.disconnect(true);
    }
  }
}

function accessOf(socket: BrowserSocket): SocketAccess {
  if (socket.data.user) return 'member';
  return socket.data.displayKeyId !== null ? 'display' : 'anonymous';
}

function authError(code: MessageCode, retryAfter?: number): Error & { data?: unknown } {
  const error: Error & { data?: unknown } = new Error(MESSAGES[code]);
  error.data = retryAfter === undefined ? { code } : { code, retry_after: retryAfter };
  return error;
}
