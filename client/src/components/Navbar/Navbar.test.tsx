import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as navigation from '../../app/navigation';
import { ADMIN, MEMBER, renderWithProviders, signIn, signOut } from '../../test/render';
import { Navbar } from './Navbar';
import { isLinkActive } from './navLinks';

const MEMBER_LINKS = [
  '/dashboard',
  '/monitors',
  '/agents',
  '/alerts',
  '/incidents',
  '/maintenance',
  '/status-pages',
  '/status/config',
  '/notifications',
];

function desktopLink(name: string) {
  return within(screen.getByTestId('navbar')).getAllByRole('link', { name })[0];
}

describe('isLinkActive', () => {
  it.each([
    ['/monitors', '/monitors', true],
    ['/monitors/12', '/monitors', true],
    ['/monitors/edit/3', '/monitors', true],
    ['/monitorsX', '/monitors', false],
    ['/monitors-old', '/monitors', false],
    ['/agents', '/monitors', false],
    ['/status', '/status/config', false],
    ['/status/config', '/status/config', true],
    ['/', '/dashboard', false],
  ])('path %s with link %s is %s', (pathname, link, expected) => {
    expect(isLinkActive(pathname, link)).toBe(expected);
  });
});

describe('Navbar', () => {
  beforeEach(() => {
    Object.defineProperty(window, 'scrollY', { configurable: true, writable: true, value: 0 });
  });

  it('shows visitors the logo, the language menu and a login button, but no member links', () => {
    signOut();
    renderWithProviders(<Navbar />);

    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.getByTestId('language-menu')).toBeInTheDocument();
    expect(screen.getByTestId('login-button')).toHaveAttribute('href', '/login');
    expect(screen.queryByTestId('nav-user-menu')).not.toBeInTheDocument();
    for (const href of MEMBER_LINKS) {
      expect(document.querySelector(`a[href="${href}"]`)).toBeNull();
    }
  });

  it('shows signed-in users the nine member links and their user menu instead of the login button', () => {
    signIn(MEMBER);
    renderWithProviders(<Navbar />);

    for (const href of MEMBER_LINKS) {
      expect(
        within(screen.getByTestId('navbar'))
          .getAllByRole('link')
          .some((link) => link.getAttribute('href') === href),
      ).toBe(true);
    }
    expect(screen.queryByTestId('login-button')).not.toBeInTheDocument();
    expect(screen.getByTestId('nav-user-menu')).toHaveTextContent('bob');
    expect(screen.getByTestId('nav-user-menu')).toHaveTextContent('B');
  });

  it('highlights the link whose path equals or prefixes the current path, and no other', () => {
    signIn(MEMBER);
    renderWithProviders(<Navbar />, { route: '/monitors/42' });

    expect(desktopLink('Monitors')).toHaveAttribute('aria-current', 'page');
    expect(desktopLink('Dashboard')).not.toHaveAttribute('aria-current');
    expect(desktopLink('Agents')).not.toHaveAttribute('aria-current');
  });

  it('does not highlight a link for a path that only shares its prefix', () => {
    signIn(MEMBER);
    renderWithProviders(<Navbar />, { route: '/monitorsX' });

    expect(desktopLink('Monitors')).not.toHaveAttribute('aria-current');
  });

  it('lists user management in the user menu for admins', async () => {
    signIn(ADMIN);
    renderWithProviders(<Navbar />);

    await userEvent.click(screen.getByTestId('nav-user-menu'));

    expect(await screen.findByTestId('nav-users')).toHaveAttribute('href', '/users');
    expect(screen.getByText('Logged in as', { exact: false })).toBeInTheDocument();
    expect(screen.getByTestId('nav-profile')).toHaveAttribute('href', '/profile');
  });

  it('hides user management from ordinary users', async () => {
    signIn(MEMBER);
    renderWithProviders(<Navbar />);

    await userEvent.click(screen.getByTestId('nav-user-menu'));

    expect(await screen.findByTestId('nav-profile')).toBeInTheDocument();
    expect(screen.queryByTestId('nav-users')).not.toBeInTheDocument();
  });

  it('logs out from the user menu: session cleared and sent to /login', async () => {
    const navigate = vi.spyOn(navigation, 'navigateTo').mockImplementation(() => undefined);
    localStorage.setItem('token', 'token-1');
    localStorage.setItem('user', JSON.stringify(MEMBER));
    signIn(MEMBER);
    renderWithProviders(<Navbar />);

    await userEvent.click(screen.getByTestId('nav-user-menu'));
    await userEvent.click(await screen.findByTestId('nav-logout'));

    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(screen.getByTestId('login-button')).toBeInTheDocument();
  });

  it('takes the scrolled look only after more than 10 px of scrolling', () => {
    signOut();
    renderWithProviders(<Navbar />);
    const bar = screen.getByTestId('navbar');
    expect(bar).not.toHaveAttribute('data-scrolled');

    act(() => {
      window.scrollY = 10;
      fireEvent.scroll(window);
    });
    expect(bar).not.toHaveAttribute('data-scrolled');

    act(() => {
      window.scrollY = 11;
      fireEvent.scroll(window);
    });
    expect(bar).toHaveAttribute('data-scrolled');
  });

  it('switches the interface language from the language menu and remembers it', async () => {
    signOut();
    renderWithProviders(<Navbar />);

    await userEvent.click(screen.getByTestId('language-menu'));
    await userEvent.click(await screen.findByTestId('language-option-zh-CN'));

    expect(await screen.findByTestId('login-button')).toHaveTextContent('登录');
    expect(localStorage.getItem('language')).toBe('zh-CN');
    expect(document.documentElement.lang).toBe('zh-CN');
  });
});
