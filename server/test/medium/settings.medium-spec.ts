import { AuditLog } from '../../src/audit/audit-log.service';
import { AuditRepository } from '../../src/audit/audit.repository';
import { SettingsRepository } from '../../src/settings/settings.repository';
import { SettingsService } from '../../src/settings/settings.service';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

describe(SettingsService.name, () => {
  let database: MediumDatabase;
  beforeAll(async () => (database = await mediumDatabase()));
  afterAll(() => database.close());

  it('keeps registration closed until an admin opens it, and stores the change', async () => {
    const { sut, close } = await newMediumService(SettingsService, database, { real: [SettingsRepository, AuditLog, AuditRepository] });
    expect(await sut.read()).toEqual({ allowRegistration: false, requireTwoFactor: false, passwordLoginDisabled: false });
    await sut.update({ allowRegistration: true });
    const rows = await database.dataSource.query(`SELECT value FROM settings WHERE key = 'allow_registration'`);
    expect(rows).toEqual([{ value: true }]);
    expect(await sut.read()).toEqual({ allowRegistration: true, requireTwoFactor: false, passwordLoginDisabled: false });
    await close();
  });
});
