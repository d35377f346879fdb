import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseWrites } from './database-writes';
import { HealthController } from './health.controller';
import { HealthRepository } from './health.repository';
import { HealthService } from './health.service';

@Module({
  controllers: [HealthController],
  providers: [
    HealthService,
    HealthRepository,
    {
      provide: DatabaseWrites,
      inject: [DataSource],
      // Subscribed after the data source is built, so it sees every statement of every module.
      useFactory: (dataSource: DataSource) => {
        const writes = new DatabaseWrites();
        dataSource.subscribers.push(writes);
        return writes;
      },
    },
  ],
})
export class HealthModule {}
