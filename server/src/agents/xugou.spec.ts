import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkXugouRegistration, checkXugouStatus, xugouReports } from './xugou';

const fixture = JSON.parse(readFileSync(join(__dirname, '../../../test/fixtures/xugou-agent.json'), 'utf8'));
const NOW = Date.parse('2026-11-20T00:20:00Z');

describe('xugou agent compatibility', () => {
  it('reads the registration of the Go agent', () => {
    expect(checkXugouRegistration(fixture.register)).toEqual({
      ok: true,
      value: {
        token: 'REPLACED_BY_TEST',
        name: 'vps-hk-01',
        hostname: 'vps-hk-01',
        ip_addresses: ['172.19.0.4', '2001:db8::4'],
        os: 'linux',
        version: '12.7',
      },
    });
  });

  it('reads one status object and an array of them', () => {
    const one = checkXugouStatus(fixture.status[0], NOW);
    expect(one.ok).toBe(true);
    if (!one.ok) return;
    expect(one.value).toHaveLength(1);
    expect(one.value[0]).toMatchObject({
      timestamp: Date.parse('2026-11-20T00:14:03.118Z'),
      cpu: 3.0150753768844223,
      memory_total: 8340000768,
      memory_used: 1613565952,
      interval: 60,
      load: [0.08, 0.12, 0.09],
      hello: { hostname: 'vps-hk-01', os: 'debian 12.7', platform: 'linux', cpu_cores: 2, agent_version: '12.7' },
    });
    expect(one.value[0].disks).toEqual([
      { mount: '/', fs: 'ext4', total: 52589998080, used: 9866170368 },
      { mount: '/boot/efi', fs: 'vfat', total: 129718272, used: 6160384 },
    ]);
    const many = checkXugouStatus(fixture.status, NOW);
    expect(many.ok && many.value.length).toBe(2);
  });

  it('computes rates from the cumulative counters, in time order, against the kept sample', () => {
    const checked = checkXugouStatus([...fixture.status].reverse(), NOW);
    if (!checked.ok) throw new Error(checked.error);
    const { reports, state } = xugouReports(checked.value, null);
    expect(reports.map((r) => r.timestamp)).toEqual([Date.parse('2026-11-20T00:14:03.118Z'), Date.parse('2026-11-20T00:15:03.120Z')]);
    expect(reports[0].interfaces.find((i) => i.name === 'eth0')).toMatchObject({ rx_rate: 0, tx_rate: 0 });
    // 600 KB and 120 KB over 60.0027 s.
    expect(reports[1].interfaces.find((i) => i.name === 'eth0')).toMatchObject({ rx_rate: 10, tx_rate: 2 });
    expect(reports[1].interfaces.find((i) => i.name === 'lo')).toMatchObject({ rx_rate: 0, tx_rate: 0 });
    expect(state?.at).toBe(reports[1].timestamp);

    // The next post after a reboot: counters went down, so no rate rather than a negative one.
    const rebooted = checkXugouStatus(
      { ...fixture.status[1], timestamp: '2026-11-20T00:16:03Z', network: [{ interface: 'eth0', bytes_sent: 10, bytes_recv: 10 }] },
      NOW,
    );
    if (!rebooted.ok) throw new Error(rebooted.error);
    const after = xugouReports(rebooted.value, state);
    expect(after.reports[0].interfaces[0]).toMatchObject({ rx_rate: 0, tx_rate: 0 });
    expect(after.state?.interfaces.eth0).toEqual({ rx: 10, tx: 10 });
  });

  it.each([
    [{ ...fixture.status[0], token: undefined }, 'body.token is required'],
    [{ ...fixture.status[0], cpu: { usage: 140 } }, 'body.cpu.usage must be from 0 to 100'],
    [{ ...fixture.status[0], memory: { total: 10, used: 20 } }, 'body.memory.used must be from 0 to 10'],
    [{ ...fixture.status[0], timestamp: 'yesterday' }, 'body.timestamp must be an RFC 3339 time'],
    [{ ...fixture.status[0], timestamp: '2020-01-01T00:00:00Z' }, "body.timestamp is too far from the server's clock"],
    [{ ...fixture.status[0], network: [{ interface: 'eth0', bytes_sent: -1, bytes_recv: 0 }] }, /network\[0\].bytes_sent must be from 0/],
    [[], 'body must hold at least one status'],
    ['text', 'body must be an object'],
  ])('refuses malformed status %#', (input, error) => {
    const result = checkXugouStatus(input, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });
});
