import { Divider, Drawer, NavLink as MantineNavLink, Stack } from '@mantine/core';
import type { UserDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../routes/paths';
import { Logo } from '../Logo/Logo';
import classes from './Navbar.module.css';
import { isLinkActive, type NavLinkSpec } from './navLinks';

interface NavDrawerProps {
  opened: boolean;
  onClose: () => void;
  links: readonly NavLinkSpec[];
  pathname: string;
  user: UserDto | null;
}

/**
 * The small screens' menu. A chunk of its own (Navbar loads it when the burger is first pressed): a drawer brings
 * the modal machinery (focus trap, scroll lock, transitions) that wide screens never need.
 */
export default function NavDrawer({ opened, onClose, links, pathname, user }: NavDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer opened={opened} onClose={onClose} size="75%" className={classes.narrowOnly} title={<Logo onClick={onClose} />}>
      <Stack gap={4} component="nav" aria-label={t('nav.menu')}>
        {links.map((link) => (
          <MantineNavLink
            key={link.to}
            component={Link}
            to={link.to}
            label={t(link.labelKey)}
            leftSection={<link.icon size={18} stroke={1.6} />}
            active={isLinkActive(pathname, link.to)}
            onClick={onClose}
          />
        ))}
        <Divider my="sm" />
        <MantineNavLink component={Link} to={PATHS.availabilityReport} label={t('nav.report')} onClick={onClose} />
        <MantineNavLink component={Link} to={PATHS.profile} label={t('nav.profile')} onClick={onClose} />
        {user?.role === 'admin' && <MantineNavLink component={Link} to={PATHS.users} label={t('nav.users')} onClick={onClose} />}
        {user?.role === 'admin' && <MantineNavLink component={Link} to={PATHS.audit} label={t('nav.audit')} onClick={onClose} />}
        {user?.role === 'admin' && <MantineNavLink component={Link} to={PATHS.kumaImport} label={t('nav.kumaImport')} onClick={onClose} />}
      </Stack>
    </Drawer>
  );
}
