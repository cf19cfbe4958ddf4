import { DROPDOWN_CLOSE_DELAY_MS, DROPDOWN_OPEN_DELAY_MS } from '@luntan/shared';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render';
import { Dropdown } from './dropdown';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const advance = (ms: number): void => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

describe('Dropdown', () => {
  it('defaults to hover and center placement', () => {
    const { container } = renderWithApp(<Dropdown menu={<p>menu</p>}>trigger</Dropdown>);
    const root = container.querySelector('.lt-dropdown')!;
    expect(root.getAttribute('data-trigger')).toBe('hover');
    expect(root.getAttribute('data-placement')).toBe('center');
  });

  it('opens 250 ms after the pointer enters', () => {
    const onVisibleChange = vi.fn();
    const { container } = renderWithApp(
      <Dropdown menu={<p>menu</p>} onVisibleChange={onVisibleChange}>
        trigger
      </Dropdown>,
    );
    fireEvent.mouseEnter(container.querySelector('.lt-dropdown')!);
    advance(DROPDOWN_OPEN_DELAY_MS - 1);
    expect(screen.queryByTestId('dropdown-popup')).toBeNull();
    advance(1);
    expect(screen.getByTestId('dropdown-popup').textContent).toBe('menu');
    expect(onVisibleChange).toHaveBeenLastCalledWith(true);
    expect(screen.getByRole('button', { name: 'trigger' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('closes 150 ms after the pointer leaves, and stays open when it comes back in time', () => {
    const { container } = renderWithApp(<Dropdown menu={<p>menu</p>}>trigger</Dropdown>);
    const root = container.querySelector('.lt-dropdown')!;
    fireEvent.mouseEnter(root);
    advance(DROPDOWN_OPEN_DELAY_MS);
    fireEvent.mouseLeave(root);
    advance(DROPDOWN_CLOSE_DELAY_MS - 1);
    expect(screen.getByTestId('dropdown-popup')).toBeTruthy();
    fireEvent.mouseEnter(root);
    advance(DROPDOWN_CLOSE_DELAY_MS);
    expect(screen.getByTestId('dropdown-popup')).toBeTruthy();
    fireEvent.mouseLeave(root);
    advance(DROPDOWN_CLOSE_DELAY_MS);
    expect(screen.queryByTestId('dropdown-popup')).toBeNull();
  });

  it('does not open when the pointer passes by quicker than 250 ms', () => {
    const { container } = renderWithApp(<Dropdown menu={<p>menu</p>}>trigger</Dropdown>);
    const root = container.querySelector('.lt-dropdown')!;
    fireEvent.mouseEnter(root);
    advance(100);
    fireEvent.mouseLeave(root);
    advance(1000);
    expect(screen.queryByTestId('dropdown-popup')).toBeNull();
  });

  it('click mode toggles on click and ignores hovering', () => {
    const { container } = renderWithApp(
      <Dropdown trigger="click" menu={<p>menu</p>}>
        trigger
      </Dropdown>,
    );
    fireEvent.mouseEnter(container.querySelector('.lt-dropdown')!);
    advance(1000);
    expect(screen.queryByTestId('dropdown-popup')).toBeNull();
    const button = screen.getByRole('button', { name: 'trigger' });
    fireEvent.click(button);
    expect(screen.getByTestId('dropdown-popup')).toBeTruthy();
    fireEvent.click(button);
    expect(screen.queryByTestId('dropdown-popup')).toBeNull();
  });

  it('closes on Escape and on a press outside', () => {
    renderWithApp(
      <>
        <Dropdown trigger="click" menu={<p>menu</p>}>
          trigger
        </Dropdown>
        <p>outside</p>
      </>,
    );
    const button = screen.getByRole('button', { name: 'trigger' });
    fireEvent.click(button);
    fireEvent.keyDown(button, { key: 'Escape' });
    expect(screen.queryByTestId('dropdown-popup')).toBeNull();
    fireEvent.click(button);
    fireEvent.mouseDown(screen.getByText('outside'));
    expect(screen.queryByTestId('dropdown-popup')).toBeNull();
  });

  it('placement can be changed', () => {
    const { container } = renderWithApp(
      <Dropdown trigger="click" placement="right" menu={<p>menu</p>}>
        trigger
      </Dropdown>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'trigger' }));
    expect(container.querySelector('.lt-dropdown__popup--right')).not.toBeNull();
  });
});
