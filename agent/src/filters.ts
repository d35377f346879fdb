/** File systems that hold no user data: kernel views, memory-backed, container layers, read-only images. */
const PSEUDO_FS = new Set([
  'tmpfs',
  'devtmpfs',
  'devfs',
  'overlay',
  'overlayfs',
  'aufs',
  'squashfs',
  'proc',
  'sysfs',
  'cgroup',
  'cgroup2',
  'autofs',
  'ramfs',
  'nsfs',
  'efivarfs',
  'iso9660',
  'udf',
  'debugfs',
  'tracefs',
  'securityfs',
  'pstore',
  'bpf',
  'configfs',
  'fusectl',
  'mqueue',
  'hugetlbfs',
  'binfmt_misc',
  'rpc_pipefs',
  'nfsd',
  'selinuxfs',
  'devpts',
  'shm',
  'none',
  'nullfs',
  'map',
  'zram',
]);

/** macOS system volumes that only mirror the data volume. */
const SKIPPED_MOUNTS = [/^\/System\/Volumes\/(?!Data$)/, /^\/private\/var\/vm$/, /^\/dev$/, /^\/snap\//, /^\/run\//, /^\/boot\/efi$/];

export function isPseudoFileSystem(type: string, mount: string): boolean {
  const fs = type.toLowerCase();
  return PSEUDO_FS.has(fs) || fs.startsWith('fuse.') || SKIPPED_MOUNTS.some((pattern) => pattern.test(mount));
}

/** Loopback and the virtual interfaces of containers, bridges, VPNs and hypervisors. */
const VIRTUAL_INTERFACE =
  /^(lo\d*|docker\d*|veth|br-|virbr|vnet|cni|flannel|cali|weave|kube|tun|tap|vmnet|vboxnet|utun|awdl|llw|bridge|gif|stf|anpi|ap\d|zt|tailscale|wg|dummy|ifb|podman|lxc|lxd)/i;

export function isVirtualInterface(name: string, internal = false): boolean {
  return internal || VIRTUAL_INTERFACE.test(name) || /loopback/i.test(name);
}
