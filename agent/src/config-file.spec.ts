import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfigPath, loadConfig, saveConfig } from './config-file';

describe('agent config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-agent-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('saves readable by the owner only and loads it back', () => {
    const path = join(dir, 'nested', 'config.json');
    saveConfig(path, { server: 'https://v.example', agent_id: 7, credential: 'vga_secret' });
    expect(loadConfig(path)).toEqual({ server: 'https://v.example', agent_id: 7, credential: 'vga_secret' });
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).agent_id).toBe(7);
  });

  it('treats a missing or damaged file as no config', () => {
    expect(loadConfig(join(dir, 'absent.json'))).toBeNull();
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    expect(loadConfig(join(dir, 'broken.json'))).toBeNull();
    writeFileSync(join(dir, 'partial.json'), '{"server":"x"}');
    expect(loadConfig(join(dir, 'partial.json'))).toBeNull();
  });

  it('picks a place per platform and user', () => {
    expect(defaultConfigPath('linux', { HOME: '/home/ann' }, false)).toBe('/home/ann/.config/vigil-agent/config.json');
    expect(defaultConfigPath('linux', { HOME: '/root' }, true)).toBe('/etc/vigil-agent/config.json');
    expect(defaultConfigPath('darwin', { HOME: '/Users/ann', XDG_CONFIG_HOME: '/x' }, false)).toBe('/x/vigil-agent/config.json');
    expect(defaultConfigPath('win32', { ProgramData: 'D:\\Data' }, false)).toMatch(/vigil-agent.config\.json$/);
  });
});
