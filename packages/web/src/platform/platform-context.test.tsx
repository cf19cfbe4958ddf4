import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PlatformProvider, usePlatform } from './platform-context';

const initialWidth = window.innerWidth;

function resizeTo(width: number): void {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
}

function Probe() {
  return <p data-testid="platform">{usePlatform()}</p>;
}

afterEach(() => {
  Object.defineProperty(window, 'innerWidth', { value: initialWidth, configurable: true, writable: true });
});

describe('PlatformProvider', () => {
  it('starts from the server platform and follows the width live', () => {
    resizeTo(1280);
    render(
      <PlatformProvider initial="pc">
        <Probe />
      </PlatformProvider>,
    );
    expect(screen.getByTestId('platform').textContent).toBe('pc');
    resizeTo(799);
    expect(screen.getByTestId('platform').textContent).toBe('h5');
    expect(document.documentElement.dataset.platform).toBe('h5');
    resizeTo(800);
    expect(screen.getByTestId('platform').textContent).toBe('pc');
  });

  it('turns a server-picked h5 into pc on a wide window after hydration', () => {
    resizeTo(1024);
    render(
      <PlatformProvider initial="h5">
        <Probe />
      </PlatformProvider>,
    );
    expect(screen.getByTestId('platform').textContent).toBe('pc');
  });
});
