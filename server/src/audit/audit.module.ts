import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { RequestContextInterceptor } from '../common/request-context';
import { AuditLog } from './audit-log.service';
import { AuditRetention } from './audit-retention.service';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';

/** The audit log: `AuditLog` for every module that changes something, `GET /api/audit` for admins. */
@Global()
@Module({
  controllers: [AuditController],
  providers: [AuditRepository, AuditLog, AuditService, AuditRetention, { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor }],
  exports: [AuditLog],
})
export class AuditModule {}
