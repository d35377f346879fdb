import { Burger, Button, Container, Group } from '@mantine/core';
import { useDisclosure, useWindowScroll } from '@mantine/hooks';
import { IconLogin } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { selectIsAuthenticated, useAuthStore } from '../../features/auth/store';
import { lazyScreen } from '../../routes/lazyScreen';
import { PATHS } from '../../routes/paths';
import { ColorSchemeToggle } from '../ColorSchemeToggle/ColorSchemeToggle';
import { DeferredMenu } from '../DeferredMenu/DeferredMenu';
import { LanguageMenu } from '../LanguageMenu/LanguageMenu';
import { Logo } from '../Logo/Logo';
import classes from './Navbar.module.css';
import { isLinkActive, NAV_LINKS, SCROLLED_AFTER_PX } from './navLinks';
import { UserButton } from './UserButton';

const NavDrawer = lazyScreen(() => import('./NavDrawer'));
const loadUserMenu = () => import('./UserMenu');
const UserMenu = lazy(loadUserMenu);

/** The top bar shown on every screen (spec section 2, "Navigation bar and footer"). */
export function Navbar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [scroll] = useWindowScroll();
  const [drawerOpened, drawer] = useDisclosure(false);
  // Mounted from the first press of the burger on (and kept, so it can animate closed).
  const [drawerWanted, setDrawerWanted] = useState(false);
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
          <Group gap={4} wrap="nowrap" className={classes.links} component="nav" aria-label={t('nav.menu')}>
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
            <DeferredMenu
              trigger={(events) => <UserButton name={user?.username ?? ''} {...events} />}
              preload={loadUserMenu}
              menu={() => <UserMenu user={user} onLogout={logout} defaultOpened />}
            />
          ) : (
            <Button component={Link} to={PATHS.login} size="sm" leftSection={<IconLogin size={16} />} data-testid="login-button">
              {t('nav.login')}
            </Button>
          )}
          {authenticated && (
            <Burger
              opened={drawerOpened}
              onClick={() => {
                setDrawerWanted(true);
                drawer.toggle();
              }}
              className={classes.narrowOnly}
              size="sm"
              aria-label={t('nav.openMenu')}
            />
          )}
        </Group>
      </Container>

      {drawerWanted && (
        <Suspense fallback={null}>
          <NavDrawer opened={drawerOpened} onClose={drawer.close} links={links} pathname={pathname} user={user} />
        </Suspense>
      )}
    </header>
  );
}
