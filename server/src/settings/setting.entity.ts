import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** One instance-wide setting (registration policy, the generated JWT secret, ...). */
@Entity('settings')
export class Setting {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  key: string;

  @Column({ type: 'jsonb' })
  value: unknown;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
