import { Burger, Button, Container, Divider, Drawer, Group, NavLink as MantineNavLink, Stack } from '@mantine/core';
import { useDisclosure, useWindowScroll } from '@mantine/hooks';
import { IconLogin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { selectIsAuthenticated, useAuthStore } from '../../features/auth/store';
import { PATHS } from '../../routes/paths';
import { ColorSchemeToggle } from '../ColorSchemeToggle/ColorSchemeToggle';
import { LanguageMenu } from '../LanguageMenu/LanguageMenu';
import { Logo } from '../Logo/Logo';
import classes from './Navbar.module.css';
import { isLinkActive, NAV_LINKS, SCROLLED_AFTER_PX } from './navLinks';
import { UserMenu } from './UserMenu';

/** The top bar shown on every screen (spec section 2, "Navigation bar and footer"). */
export function Navbar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [scroll] = useWindowScroll();
  const [drawerOpened, drawer] = useDisclosure(false);
  const authenticated = useAuthStore(selectIsAuthenticated);
  const user = useAuthStore((state) => state.user);
  const logout = useAuthStore((state) => state.logout);
  const scrolled = scroll.y > SCROLLED_AFTER_PX;

  const links = authenticated ? NAV_LINKS : [];

  return (
    <header className={classes.header} data-scrolled={scrolled || undefined} data-testid="navbar">
      <Container size="xl" className={classes.inner}>
        <Group gap="lg" wrap="nowrap">
          <Logo />
          <Group gap={4} visibleFrom="md" component="nav" aria-label={t('nav.menu')}>
            {links.map((link) => {
              const active = isLinkActive(pathname, link.to);
              return (
                <Link
                  key={link.to}
                  to={link.to}
                  className={classes.link}
                  data-active={active || undefined}
                  aria-current={active ? 'page' : undefined}
                  data-testid={`nav-link-${link.to.slice(1).replace('/', '-')}`}
                >
                  {t(link.labelKey)}
                </Link>
              );
            })}
          </Group>
        </Group>

        <Group gap="xs" wrap="nowrap">
          <LanguageMenu />
          <ColorSchemeToggle />
          {authenticated ? (
            <UserMenu user={user} onLogout={logout} />
          ) : (
            <Button component={Link} to={PATHS.login} size="sm" leftSection={<IconLogin size={16} />} data-testid="login-button">
              {t('nav.login')}
            </Button>
          )}
          {authenticated && (
            <Burger opened={drawerOpened} onClick={drawer.toggle} hiddenFrom="md" size="sm" aria-label={t('nav.openMenu')} />
          )}
        </Group>
      </Container>

      <Drawer opened={drawerOpened} onClose={drawer.close} size="75%" hiddenFrom="md" title={<Logo onClick={drawer.close} />}>
        <Stack gap={4} component="nav" aria-label={t('nav.menu')}>
          {links.map((link) => (
            <MantineNavLink
              key={link.to}
              component={Link}
              to={link.to}
              label={t(link.labelKey)}
              leftSection={<link.icon size={18} stroke={1.6} />}
              active={isLinkActive(pathname, link.to)}
              onClick={drawer.close}
            />
          ))}
          <Divider my="sm" />
          <MantineNavLink component={Link} to={PATHS.profile} label={t('nav.profile')} onClick={drawer.close} />
          {user?.role === 'admin' && <MantineNavLink component={Link} to={PATHS.users} label={t('nav.users')} onClick={drawer.close} />}
          {user?.role === 'admin' && <MantineNavLink component={Link} to={PATHS.audit} label={t('nav.audit')} onClick={drawer.close} />}
        </Stack>
      </Drawer>
    </header>
  );
}
