import { execRunner, parseSystemctlShow, readServices, Runner, SystemdMissingError } from './services';

/** `systemctl show` prints the properties in its own order, one block per unit, blank lines between. */
const SHOW = `Id=nginx.service
LoadState=loaded
ActiveState=active
SubState=running

Id=postgresql.service
LoadState=loaded
ActiveState=failed
SubState=failed

Id=ghost.service
LoadState=not-found
ActiveState=inactive
SubState=dead

Id=backup.timer
LoadState=loaded
ActiveState=activating
SubState=waiting
`;

describe('systemd unit states', () => {
  it.each([
    [
      'one block per unit, in the order asked',
      SHOW,
      ['nginx.service', 'postgresql.service', 'ghost.service', 'backup.timer'],
      [
        { name: 'nginx.service', state: 'active', sub_state: 'running' },
        { name: 'postgresql.service', state: 'failed', sub_state: 'failed' },
        { name: 'ghost.service', state: 'unknown', sub_state: 'not-found' },
        { name: 'backup.timer', state: 'activating', sub_state: 'waiting' },
      ],
    ],
    [
      'an alias answering with its real Id, under the name asked',
      'Id=ssh.service\nLoadState=loaded\nActiveState=reloading\nSubState=reload\n',
      ['sshd.service'],
      [{ name: 'sshd.service', state: 'reloading', sub_state: 'reload' }],
    ],
    [
      'a state this protocol does not know',
      'Id=odd.service\nLoadState=loaded\nActiveState=maintenance\nSubState=cleaning\n',
      ['odd.service'],
      [{ name: 'odd.service', state: 'unknown', sub_state: 'cleaning' }],
    ],
    [
      'blocks missing from the answer, matched by Id',
      'Id=nginx.service\nActiveState=deactivating\nSubState=stop-sigterm\n',
      ['cron.service', 'nginx.service'],
      [
        { name: 'cron.service', state: 'unknown' },
        { name: 'nginx.service', state: 'deactivating', sub_state: 'stop-sigterm' },
      ],
    ],
    ['an empty answer', '', ['nginx.service'], [{ name: 'nginx.service', state: 'unknown' }]],
    [
      'a sub-state longer than the server keeps, clipped',
      `Id=a.service\nActiveState=active\nSubState=${'s'.repeat(40)}\n`,
      ['a.service'],
      [{ name: 'a.service', state: 'active', sub_state: 's'.repeat(32) }],
    ],
  ])('parses %s', (_, output, units, expected) => {
    expect(parseSystemctlShow(output, units)).toEqual(expected);
  });

  it('asks systemctl once for every unit, after "--" so a unit name is never an option', async () => {
    const calls: string[][] = [];
    const run: Runner = async (file, args) => {
      calls.push([file, ...args]);
      return SHOW;
    };
    const units = ['nginx.service', 'postgresql.service', 'ghost.service', 'backup.timer'];
    await expect(readServices(units, run)).resolves.toHaveLength(4);
    expect(calls).toEqual([['systemctl', 'show', '--property=Id,LoadState,ActiveState,SubState', '--', ...units]]);
  });

  it('says so when the host has no systemctl', async () => {
    const run: Runner = () => Promise.reject(Object.assign(new Error('spawn systemctl ENOENT'), { code: 'ENOENT' }));
    await expect(readServices(['nginx.service'], run)).rejects.toThrow(SystemdMissingError);
  });

  it('names a failed call by its first line', async () => {
    const run: Runner = () => Promise.reject(new Error('Command failed: systemctl show\nSystem has not been booted with systemd'));
    await expect(readServices(['nginx.service'], run)).rejects.toThrow('systemctl show failed: Command failed: systemctl show');
  });

  it('runs a real program: its output, its own complaint on failure, ENOENT when it is missing', async () => {
    await expect(execRunner(process.execPath, ['-e', 'process.stdout.write("Id=a.service")'])).resolves.toBe('Id=a.service');
    await expect(
      execRunner(process.execPath, ['-e', 'process.stderr.write("not booted with systemd\\nmore"); process.exit(1)']),
    ).rejects.toThrow(/^not booted with systemd$/);
    await expect(execRunner('/nonexistent/systemctl', [])).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
