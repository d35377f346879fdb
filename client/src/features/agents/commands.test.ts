import { describe, expect, it } from 'vitest';
import { AGENT_ARCHES, AGENT_OSES, installCommands } from './commands';

const SERVER = 'https://vigil.example.com';
const TOKEN = 'vgr_abc-DEF_123';

describe('install commands', () => {
  it.each(AGENT_ARCHES)('give Linux %s the download, start and systemd commands with server, token and interval 60', (arch) => {
    const sut = installCommands(SERVER, TOKEN, 'linux', arch);
    expect(sut.downloadUrl).toBe('https://vigil.example.com/downloads/vigil-agent.mjs');
    expect(sut.downloadCommand).toBe('curl -fsSLo vigil-agent.mjs https://vigil.example.com/downloads/vigil-agent.mjs');
    expect(sut.startCommand).toBe('node vigil-agent.mjs --server https://vigil.example.com --token vgr_abc-DEF_123 --interval 60');
    expect(sut.serviceCommand).toBe(
      'curl -fsSL https://vigil.example.com/downloads/install.sh | sudo bash -s -- --server https://vigil.example.com --token vgr_abc-DEF_123 --interval 60',
    );
  });

  it('uses the same script for macOS, which installs a launchd daemon', () => {
    const sut = installCommands(SERVER, TOKEN, 'darwin', 'arm64');
    expect(sut.downloadCommand).toBe('curl -fsSLo vigil-agent.mjs https://vigil.example.com/downloads/vigil-agent.mjs');
    expect(sut.serviceCommand).toContain(
      '/downloads/install.sh | sudo bash -s -- --server https://vigil.example.com --token vgr_abc-DEF_123 --interval 60',
    );
    expect(sut.nodeBuild).toBe('darwin-arm64');
  });

  it('gives Windows no download command and the PowerShell installer for a scheduled task', () => {
    const sut = installCommands(SERVER, TOKEN, 'windows', 'amd64');
    expect(sut.downloadCommand).toBeNull();
    expect(sut.downloadUrl).toBe('https://vigil.example.com/downloads/vigil-agent.mjs');
    expect(sut.startCommand).toBe('node vigil-agent.mjs --server https://vigil.example.com --token vgr_abc-DEF_123 --interval 60');
    expect(sut.serviceCommand).toBe(
      'iwr https://vigil.example.com/downloads/install.ps1 -OutFile install.ps1; .\\install.ps1 -Server https://vigil.example.com -Token vgr_abc-DEF_123 -Interval 60',
    );
    expect(sut.nodeBuild).toBe('win-x64');
  });

  it.each(AGENT_OSES.flatMap((os) => AGENT_ARCHES.map((arch) => [os, arch] as const)))('names the Node.js build for %s %s', (os, arch) => {
    expect(installCommands(SERVER, TOKEN, os, arch).nodeBuild).toMatch(new RegExp(`^(linux|darwin|win)-(x64|arm64)$`));
  });

  it('drops a trailing slash of the server address', () => {
    expect(installCommands('http://10.0.0.2:3000/', TOKEN, 'linux', 'amd64').downloadUrl).toBe(
      'http://10.0.0.2:3000/downloads/vigil-agent.mjs',
    );
  });

  it('quotes a value the shell or PowerShell would otherwise split or expand', () => {
    expect(installCommands(SERVER, "to ken'$x", 'linux', 'amd64').startCommand).toBe(
      `node vigil-agent.mjs --server ${SERVER} --token 'to ken'\\''$x' --interval 60`,
    );
    expect(installCommands(SERVER, "to ken'$x", 'windows', 'amd64').startCommand).toBe(
      `node vigil-agent.mjs --server ${SERVER} --token 'to ken''$x' --interval 60`,
    );
  });
});
