import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { isActivePath, PlainLink, PlainLinkNavigator, PlainNavLink } from './plain-link';

const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'link link--active' : 'link');

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{pathname + search}</p>;
}

function Page() {
  return (
    <PlainLinkNavigator>
      <Where />
      <PlainNavLink to="/" end className={navClass}>
        home
      </PlainNavLink>
      <PlainNavLink to="/message" className={navClass}>
        messages
      </PlainNavLink>
      <PlainLink to="/user/7?tab=likes">user</PlainLink>
    </PlainLinkNavigator>
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '*', Component: Page }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('plain links', () => {
  it('are active on their page, below it unless `end`, as NavLink decides', () => {
    expect(isActivePath('/', '/', true)).toBe(true);
    expect(isActivePath('/search', '/', true)).toBe(false);
    expect(isActivePath('/message', '/message')).toBe(true);
    expect(isActivePath('/message/', '/message')).toBe(true);
    expect(isActivePath('/message/chat', '/message')).toBe(true);
    expect(isActivePath('/message/chat', '/message', true)).toBe(false);
    expect(isActivePath('/messages', '/message')).toBe(false);
  });

  it('mark the page shown with their class and aria-current', () => {
    renderAt('/message');
    expect(screen.getByText('messages').getAttribute('aria-current')).toBe('page');
    expect(screen.getByText('messages').className).toBe('link link--active');
    expect(screen.getByText('home').getAttribute('aria-current')).toBeNull();
    expect(screen.getByText('home').className).toBe('link');
  });

  it('navigate in the app on a plain click and leave other clicks to the browser', () => {
    const router = renderAt('/');
    const ctrlClick = fireEvent.click(screen.getByText('user'), { button: 0, ctrlKey: true });
    expect(ctrlClick).toBe(true); // not prevented: a new tab is the browser's
    expect(router.state.location.pathname).toBe('/');
    fireEvent.click(screen.getByText('user'), { button: 0 });
    expect(screen.getByTestId('where').textContent).toBe('/user/7?tab=likes');
    expect(screen.getByText('home').className).toBe('link');
  });
});
