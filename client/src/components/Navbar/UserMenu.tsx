import { Menu, Text } from '@mantine/core';
import { IconFileImport, IconHistory, IconLogout, IconReportAnalytics, IconUser, IconUsers } from '@tabler/icons-react';
import type { UserDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../routes/paths';
import { UserButton } from './UserButton';

interface UserMenuProps {
  user: UserDto | null;
  onLogout: () => void;
  /** Open on mount (the navbar loads this menu when its button is first pressed). */
  defaultOpened?: boolean;
}

/** The signed-in user's menu: who is signed in, user management for admins, the availability report, profile and logout. */
export default function UserMenu({ user, onLogout, defaultOpened = false }: UserMenuProps) {
  const { t } = useTranslation();
  const name = user?.username ?? '';
  return (
    <Menu position="bottom-end" width={220} withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <UserButton name={name} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {t('nav.loggedInAs')}{' '}
          <Text span fw={600} size="xs" c="bright" data-testid="nav-username">
            {name}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        {user?.role === 'admin' && (
          <Menu.Item component={Link} to={PATHS.users} leftSection={<IconUsers size={16} />} data-testid="nav-users">
            {t('nav.users')}
          </Menu.Item>
        )}
        {user?.role === 'admin' && (
          <Menu.Item component={Link} to={PATHS.audit} leftSection={<IconHistory size={16} />} data-testid="nav-audit">
            {t('nav.audit')}
          </Menu.Item>
        )}
        {user?.role === 'admin' && (
          <Menu.Item component={Link} to={PATHS.kumaImport} leftSection={<IconFileImport size={16} />} data-testid="nav-kuma-import">
            {t('nav.kumaImport')}
          </Menu.Item>
        )}
        <Menu.Item component={Link} to={PATHS.availabilityReport} leftSection={<IconReportAnalytics size={16} />} data-testid="nav-report">
          {t('nav.report')}
        </Menu.Item>
        <Menu.Item component={Link} to={PATHS.profile} leftSection={<IconUser size={16} />} data-testid="nav-profile">
          {t('nav.profile')}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={onLogout} data-testid="nav-logout">
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
