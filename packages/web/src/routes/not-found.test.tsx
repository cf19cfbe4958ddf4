import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { forum } from '../test/fixtures';
import { renderWithApp } from '../test/render';
import { NotFoundPage } from './not-found';

const initialWidth = window.innerWidth;
function setWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
}
afterEach(() => setWidth(initialWidth));

describe('not-found page', () => {
  it('shows the title, the image, the text and the back button', () => {
    renderWithApp(<NotFoundPage />, { forum: forum(), locale: 'en' });
    expect(screen.getByRole('heading', { name: 'resource not found' })).toBeTruthy();
    expect(screen.getByRole('img', { name: '404' }).getAttribute('src')).toBe('/static/404.svg');
    expect(screen.getByText(/deleted, renamed or be temporarily unavailable/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'go back to the previous page' })).toBeTruthy();
  });

  it('has desktop and mobile variants', () => {
    const { container, unmount } = renderWithApp(<NotFoundPage />, { platform: 'pc' });
    expect(container.querySelector('.lt-not-found--pc')).not.toBeNull();
    unmount();
    setWidth(390);
    const mobile = renderWithApp(<NotFoundPage />, { platform: 'h5' });
    expect(mobile.container.querySelector('.lt-not-found--h5')).not.toBeNull();
  });

  it('goes to / when there is no history', async () => {
    const { router } = renderWithApp(<NotFoundPage />, { path: '/missing', locale: 'en' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'go back to the previous page' }));
    });
    expect(router.state.location.pathname).toBe('/');
  });
});
