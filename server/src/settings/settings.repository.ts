import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { Setting } from './setting.entity';

@Injectable()
export class SettingsRepository {
  private readonly repo: Repository<Setting>;

  constructor(dataSource: DataSource) {
    this.repo = dataSource.getRepository(Setting);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.repo.findOneBy({ key });
    return row ? (row.value as T) : undefined;
  }

  /** `db`: the transaction the setting commits with (and its audit entry). */
  async set(key: string, value: unknown, db?: EntityManager): Promise<void> {
    await (db ? db.getRepository(Setting) : this.repo).upsert({ key, value: value as object }, ['key']);
  }

  /** Stores `value` unless the key exists, then returns what is stored: several instances agree on one value. */
  async getOrCreate<T>(key: string, value: T): Promise<T> {
    await this.repo
      .createQueryBuilder()
      .insert()
      .values({ key, value: value as object })
      .orIgnore()
      .execute();
    return (await this.get<T>(key)) as T;
  }
}
