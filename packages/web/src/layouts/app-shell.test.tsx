import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { forum } from '../test/fixtures';
import { renderWithApp } from '../test/render';
import { AppShell } from './app-shell';

const initialWidth = window.innerWidth;

function resizeTo(width: number): void {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true, writable: true });
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
}

/** A page holding state of its own, as an editor does. */
function Writing() {
  const [text, setText] = useState('');
  return <textarea aria-label="draft" value={text} onChange={(event) => setText(event.target.value)} />;
}

afterEach(() => {
  Object.defineProperty(window, 'innerWidth', { value: initialWidth, configurable: true, writable: true });
});

describe('the app shell across the 800 px switch', () => {
  it('changes the frame and the header, never the page: its state, its element and the focus stay', () => {
    resizeTo(1280);
    const { container } = renderWithApp(<p>elsewhere</p>, {
      forum: forum(),
      routes: [{ path: '/', Component: AppShell, children: [{ index: true, Component: Writing }] }],
    });
    const box = screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'draft' });
    box.focus();
    fireEvent.change(box, { target: { value: '写到一半' } });
    expect(container.querySelector('[data-layout]')!.getAttribute('data-layout')).toBe('pc');
    expect(container.querySelector('.lt-header--desktop')).not.toBeNull();

    resizeTo(799);
    expect(container.querySelector('[data-layout]')!.getAttribute('data-layout')).toBe('h5');
    expect(container.querySelector('.lt-mheader')).not.toBeNull();
    expect(container.querySelector('.lt-header--desktop')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'draft' })).toBe(box);
    expect(box.value).toBe('写到一半');
    expect(document.activeElement).toBe(box);

    resizeTo(800);
    expect(container.querySelector('[data-layout]')!.getAttribute('data-layout')).toBe('pc');
    expect(screen.getByRole('textbox', { name: 'draft' })).toBe(box);
    expect(box.value).toBe('写到一半');
    expect(document.activeElement).toBe(box);
  });
});
