import { Controller, Get, HttpCode, HttpStatus } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ApiException } from '../common/api-exception';
import { Public } from '../common/decorators';

/** A database that does not answer within this time counts as down, so a load balancer is not kept waiting. */
const DATABASE_TIMEOUT_MS = 3000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Public()
  @Get()
  @HttpCode(200)
  async check(): Promise<{ success: true; database: 'up' }> {
    if (!(await this.databaseAnswers())) {
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'health.databaseDown');
    }
    return { success: true, database: 'up' };
  }

  private async databaseAnswers(): Promise<boolean> {
    if (!this.dataSource.isInitialized) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), DATABASE_TIMEOUT_MS);
    });
    const query = this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
