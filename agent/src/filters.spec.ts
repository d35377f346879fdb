import { isPseudoFileSystem, isVirtualInterface } from './filters';

describe('what the agent leaves out by default', () => {
  it.each([
    ['tmpfs', '/run', true],
    ['devtmpfs', '/dev', true],
    ['overlay', '/var/lib/docker/overlay2/x/merged', true],
    ['squashfs', '/snap/core/1', true],
    ['fuse.sshfs', '/mnt/remote', true],
    ['cgroup2', '/sys/fs/cgroup', true],
    ['vfat', '/boot/efi', true],
    ['apfs', '/System/Volumes/VM', true],
    ['ext4', '/', false],
    ['xfs', '/data', false],
    ['apfs', '/System/Volumes/Data', false],
    ['NTFS', 'C:', false],
    ['btrfs', '/home', false],
  ])('file system %s at %s: left out = %s', (type, mount, pseudo) => {
    expect(isPseudoFileSystem(type, mount)).toBe(pseudo);
  });

  it.each([
    ['lo', true],
    ['lo0', true],
    ['docker0', true],
    ['veth1a2b3c', true],
    ['br-4f5e6d', true],
    ['virbr0', true],
    ['tun0', true],
    ['tailscale0', true],
    ['wg0', true],
    ['utun3', true],
    ['Loopback Pseudo-Interface 1', true],
    ['eth0', false],
    ['ens3', false],
    ['enp0s31f6', false],
    ['en0', false],
    ['wlan0', false],
    ['Ethernet', false],
  ])('interface %s: left out = %s', (name, virtual) => {
    expect(isVirtualInterface(name)).toBe(virtual);
  });

  it('leaves out an interface the OS calls internal', () => {
    expect(isVirtualInterface('eth9', true)).toBe(true);
  });
});
