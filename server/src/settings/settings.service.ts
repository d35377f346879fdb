import { Injectable } from '@nestjs/common';
import { InstanceSettings } from '@vigil/proto';
import { SettingsRepository } from './settings.repository';

const ALLOW_REGISTRATION = 'allow_registration';

/** Instance-wide settings an admin can change. */
@Injectable()
export class SettingsService {
  constructor(private readonly settings: SettingsRepository) {}

  async read(): Promise<InstanceSettings> {
    return { allowRegistration: (await this.settings.get<boolean>(ALLOW_REGISTRATION)) ?? false };
  }

  async update(changes: Partial<InstanceSettings>): Promise<InstanceSettings> {
    if (changes.allowRegistration !== undefined) await this.settings.set(ALLOW_REGISTRATION, changes.allowRegistration);
    return this.read();
  }
}
