import { TOAST_DEFAULT_DURATION_MS } from '@luntan/shared';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../test/render';
import { TOAST_FADE_MS, toast } from './toast';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const advance = (ms: number): void => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

function current(): HTMLElement | null {
  return document.querySelector('.lt-toast');
}

describe('toast', () => {
  it('fades in, stays 1500 ms by default, fades out, then closes', () => {
    renderWithApp(<p>page</p>);
    const onClose = vi.fn();
    act(() => {
      toast.show({ content: 'Saved', type: 'success', onClose });
    });
    expect(current()!.getAttribute('data-phase')).toBe('entering');
    advance(50);
    expect(current()!.getAttribute('data-phase')).toBe('shown');
    advance(TOAST_DEFAULT_DURATION_MS - 51);
    expect(current()!.getAttribute('data-phase')).toBe('shown');
    advance(1);
    expect(current()!.getAttribute('data-phase')).toBe('leaving');
    expect(onClose).not.toHaveBeenCalled();
    advance(TOAST_FADE_MS);
    expect(current()).toBeNull();
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows one toast at a time: a new one replaces the current one', () => {
    renderWithApp(<p>page</p>);
    act(() => {
      toast.info('first');
      toast.error('second');
    });
    expect(document.querySelectorAll('.lt-toast')).toHaveLength(1);
    expect(current()!.textContent).toContain('second');
    expect(current()!.getAttribute('data-type')).toBe('error');
  });

  it('has an icon for success, error, loading and warning, none for info', () => {
    renderWithApp(<p>page</p>);
    for (const type of ['success', 'error', 'loading', 'warning'] as const) {
      act(() => {
        toast[type]('x');
      });
      expect(current()!.querySelector('.lt-toast__icon svg'), type).not.toBeNull();
    }
    act(() => {
      toast.info('x');
    });
    expect(current()!.querySelector('.lt-toast__icon')).toBeNull();
  });

  it('takes duration, icon, mask, position, className and style options', () => {
    renderWithApp(<p>page</p>);
    act(() => {
      toast.show({
        type: 'warning',
        content: 'Careful',
        duration: 3000,
        icon: <b data-testid="own-icon">!</b>,
        hasMask: true,
        position: 'top',
        className: 'mine',
        style: { color: 'red' },
      });
    });
    const layer = screen.getByTestId('toast-layer');
    expect(layer.className).toContain('lt-toast-layer--mask');
    expect(layer.className).toContain('lt-toast-layer--top');
    expect(current()!.className).toContain('mine');
    expect(current()!.style.color).toBe('red');
    expect(screen.getByTestId('own-icon')).toBeTruthy();
    advance(2999);
    expect(current()!.getAttribute('data-phase')).toBe('shown');
    advance(1 + TOAST_FADE_MS);
    expect(current()).toBeNull();
  });

  it('duration 0 stays until hidden', () => {
    renderWithApp(<p>page</p>);
    act(() => {
      toast.loading({ content: 'Working', duration: 0 });
    });
    advance(60_000);
    expect(current()).not.toBeNull();
    act(() => toast.hide());
    advance(TOAST_FADE_MS);
    expect(current()).toBeNull();
  });
});
