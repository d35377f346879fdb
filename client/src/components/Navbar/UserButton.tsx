import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './Navbar.module.css';

/** The user menu's button: the signed-in user's initial and name (Menu.Target passes its ref and handlers). */
export function UserButton({ name, ...props }: { name: string } & ComponentPropsWithRef<'button'>) {
  const { t } = useTranslation();
  const initial = name.charAt(0).toUpperCase() || '?';
  return (
    <UnstyledButton className={classes.userButton} data-testid="nav-user-menu" aria-label={t('nav.loggedInAs')} {...props}>
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
  );
}
