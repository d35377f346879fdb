import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators';
import { Reply } from '../common/reply';
import { HealthService } from './health.service';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** 200 while the database answers and accepts writes; 503 with the reason otherwise (for load balancers). */
  @Public()
  @Get()
  @HttpCode(200)
  @Reply()
  async check(): Promise<{ database: 'up' }> {
    await this.health.check();
    return { database: 'up' };
  }
}
