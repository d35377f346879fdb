import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuditResponse } from '@vigil/proto';
import { Roles } from '../common/decorators';
import { Payload, Reply } from '../common/reply';
import { AuditQuery } from './audit.dto';
import { AuditService } from './audit.service';

@ApiTags('audit')
@ApiBearerAuth()
@Controller('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Roles('admin')
  @Get()
  @Reply()
  page(@Query() query: AuditQuery): Promise<Payload<AuditResponse>> {
    return this.audit.page(query);
  }
}
