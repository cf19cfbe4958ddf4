import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forum, unread, viewer } from '../test/fixtures';
import { fakeApi, renderWithApp } from '../test/render';
import { DesktopHeader } from './desktop/desktop-header';
import { MobileHeader } from './mobile/mobile-header';
import { SiteFooter, recordCodeNumber } from './shared/site-footer';

afterEach(() => vi.useRealTimers());

describe('desktop header', () => {
  it('shows Home, Message and Discover with canViewThreads, and the Login/Register button for a guest', () => {
    renderWithApp(<DesktopHeader />, { forum: forum({ canViewThreads: true }), locale: 'en' });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(
      within(nav)
        .getByRole('link', { name: /Message/ })
        .getAttribute('href'),
    ).toBe('/message');
    expect(within(nav).getByRole('link', { name: 'Discover' })).toBeTruthy();
    const login = screen.getByRole('link', { name: 'Login/Register' });
    expect(login.getAttribute('href')).toBe('/user/login');
    expect(screen.getByRole('link', { name: 'Test Forum' }).getAttribute('href')).toBe('/');
  });

  it('hides Discover without canViewThreads', () => {
    renderWithApp(<DesktopHeader />, { forum: forum({ canViewThreads: false }), locale: 'en' });
    expect(screen.queryByRole('link', { name: 'Discover' })).toBeNull();
  });

  it("links home the site's logo, else its name in words, else the default logo", () => {
    const named = renderWithApp(<DesktopHeader />, { forum: forum(), locale: 'en' });
    const brand = named.container.querySelector('.lt-header__logo')!;
    expect(brand.getAttribute('href')).toBe('/');
    expect(brand.querySelector('img')).toBeNull();
    expect(brand.textContent).toBe('Test Forum');
    named.unmount();
    const unnamed = renderWithApp(<DesktopHeader />, { forum: forum({ site: { siteName: ' ' } }), locale: 'en' });
    expect(unnamed.container.querySelector('.lt-header__logo img')!.getAttribute('src')).toBe('/static/logo.svg');
    unnamed.unmount();
    const custom = renderWithApp(<DesktopHeader />, { forum: forum({ site: { siteLogo: '/uploads/l.png' } }) });
    expect(custom.container.querySelector('.lt-header__logo img')!.getAttribute('src')).toBe('/uploads/l.png');
    custom.unmount();
    const header = renderWithApp(<DesktopHeader />, {
      forum: forum({ site: { siteLogo: '/uploads/l.png', siteHeaderLogo: '/uploads/h.png' } }),
    });
    expect(header.container.querySelector('.lt-header__logo img')!.getAttribute('src')).toBe('/uploads/h.png');
  });

  it('searches on Enter and on the icon', async () => {
    const { router } = renderWithApp(<DesktopHeader />, { forum: forum(), locale: 'en' });
    const box = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(box, { target: { value: 'a&b #c' } });
    await act(async () => {
      fireEvent.submit(box.closest('form')!);
    });
    expect(router.state.location.pathname).toBe('/search');
    expect(new URLSearchParams(router.state.location.search).get('keyword')).toBe('a&b #c');
    fireEvent.change(box, { target: { value: 'second' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    });
    expect(router.state.location.search).toBe('?keyword=second');
  });

  it('gives a signed-in user a hover menu with Personal Center and Log out, and a badge', async () => {
    vi.useFakeTimers();
    const api = fakeApi({
      '/api/v3/unreadnotification': () => unread(120),
      '/api/v3/users/logout': () => ({}),
      '/api/v3/forum': () => forum(),
    });
    const { container } = renderWithApp(<DesktopHeader />, {
      forum: forum({ user: viewer({ nickname: 'Alice' }) }),
      api,
      locale: 'en',
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByRole('link', { name: 'Login/Register' })).toBeNull();
    expect(screen.getByTestId('badge').textContent).toBe('99+');
    fireEvent.mouseEnter(container.querySelector('.lt-dropdown')!);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(250);
    });
    const menu = screen.getByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Personal Center' }).getAttribute('href')).toBe('/my');
    expect(within(menu).getByRole('menuitem', { name: 'Log out' })).toBeTruthy();
  });
});

describe('mobile header', () => {
  it('has a back button, Home, Message and Personal Center', () => {
    renderWithApp(<MobileHeader />, { forum: forum(), locale: 'en', platform: 'h5' });
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: /Message/ }).getAttribute('href')).toBe('/message');
    expect(screen.getByRole('link', { name: 'Personal Center' }).getAttribute('href')).toBe('/my');
  });

  it('goes home when the history holds one entry or fewer', async () => {
    const { router } = renderWithApp(<MobileHeader />, { forum: forum(), platform: 'h5', path: '/search' });
    expect(window.history.length).toBeLessThanOrEqual(1);
    await act(async () => {
      fireEvent.click(screen.getByTestId('mobile-back'));
    });
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('footer', () => {
  it('renders nothing until the site settings are loaded', () => {
    const { container } = renderWithApp(<SiteFooter />, { forum: null });
    expect(container.querySelector('footer')).toBeNull();
  });

  it('shows the year and site name, the version, and the records when set', () => {
    renderWithApp(<SiteFooter />, {
      forum: forum({
        site: { siteName: 'My Site', version: 'v9.9', siteRecord: '京ICP备1号', siteRecordCode: '京公网安备 110105号' },
      }),
      locale: 'en',
    });
    expect(screen.getByTestId('footer-copyright').textContent).toBe(`© ${new Date().getFullYear()} My Site`);
    expect(screen.getByTestId('footer-powered').textContent).toContain('v9.9');
    expect(screen.getByTestId('footer-record').textContent).toBe('京ICP备1号');
    const code = screen.getByTestId('footer-record-code');
    expect(code.textContent).toContain('京公网安备 110105号');
    expect(code.querySelector('img')).not.toBeNull();
    expect(code.getAttribute('href')).toContain('110105');
    expect(recordCodeNumber('京公网安备 11010502030143号')).toBe('11010502030143');
  });

  it('leaves the records out when they are not set', () => {
    renderWithApp(<SiteFooter />, { forum: forum() });
    expect(screen.queryByTestId('footer-record')).toBeNull();
    expect(screen.queryByTestId('footer-record-code')).toBeNull();
  });
});
