import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ADMINS_ROOM, UsersChangedEvent } from '@vigil/proto';
import type { EventMap } from '../events/event-map';
import { RealtimeGateway } from './realtime.gateway';

/** The one place domain events become browser pushes. */
@Injectable()
export class RealtimeListener {
  private readonly logger = new Logger(RealtimeListener.name);

  constructor(private readonly gateway: RealtimeGateway) {}

  @OnEvent('user.created')
  userCreated({ user }: EventMap['user.created']): void {
    this.pushUserChange({ action: 'created', user });
  }

  @OnEvent('user.updated', { async: true, promisify: true })
  async userUpdated({ user }: EventMap['user.updated']): Promise<void> {
    this.pushUserChange({ action: 'updated', user });
    await this.revalidate(user.id);
  }

  @OnEvent('user.deleted', { async: true, promisify: true })
  async userDeleted({ user }: EventMap['user.deleted']): Promise<void> {
    this.pushUserChange({ action: 'deleted', user });
    await this.revalidate(user.id);
  }

  private async revalidate(userId: number): Promise<void> {
    try {
      await this.gateway.revalidateUser(userId);
    } catch (error) {
      this.logger.error(`Could not re-check the sockets of user ${userId}: ${(error as Error).message}`);
    }
  }

  private pushUserChange(event: UsersChangedEvent): void {
    this.gateway.server.to(ADMINS_ROOM).emit('users.changed', event);
  }
}
