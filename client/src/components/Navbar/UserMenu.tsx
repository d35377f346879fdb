import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconHistory, IconLogout, IconUser, IconUsers } from '@tabler/icons-react';
import type { UserDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '../../routes/paths';
import classes from './Navbar.module.css';

interface UserMenuProps {
  user: UserDto | null;
  onLogout: () => void;
}

/** The signed-in user's menu: who is signed in, user management for admins, profile and logout. */
export function UserMenu({ user, onLogout }: UserMenuProps) {
  const { t } = useTranslation();
  const name = user?.username ?? '';
  const initial = name.charAt(0).toUpperCase() || '?';
  return (
    <Menu position="bottom-end" width={220} withinPortal>
      <Menu.Target>
        <UnstyledButton className={classes.userButton} data-testid="nav-user-menu" aria-label={t('nav.loggedInAs')}>
          <Group gap={8} wrap="nowrap">
            <Avatar radius="xl" size={28} color="blue" aria-hidden>
              {initial}
            </Avatar>
            <Text fw={500} size="sm" visibleFrom="sm" className={classes.userName}>
              {name}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
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
