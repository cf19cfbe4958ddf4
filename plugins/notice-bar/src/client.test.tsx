import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NoticeBar, safeLink } from './client';

afterEach(cleanup);

const header = <header>Default header</header>;

describe('NoticeBar', () => {
  it('renders the default header, then the notice in the chosen colours', () => {
    render(
      <NoticeBar plugin={{ settings: { text: 'Maintenance tonight', background: '#123456', color: '#fff' } }}>
        {header}
      </NoticeBar>,
    );
    const note = screen.getByRole('note');
    expect(note.textContent).toBe('Maintenance tonight');
    expect(note.style.background).toBe('#123456');
    expect(note.style.color).toBe('#fff');
    // The header comes first.
    expect(screen.getByText('Default header').compareDocumentPosition(note)).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
  });

  it('renders only the default header while the text is empty or blank', () => {
    const { container } = render(
      <NoticeBar plugin={{ settings: { text: '   ', link: 'https://example.com' } }}>{header}</NoticeBar>,
    );
    expect(screen.queryByRole('note')).toBeNull();
    expect(container.innerHTML).toBe('<header>Default header</header>');
    render(<NoticeBar>{header}</NoticeBar>);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('links the text when a link is set', () => {
    render(
      <NoticeBar plugin={{ settings: { text: 'Read the rules', link: 'https://example.com/rules' } }}>
        {header}
      </NoticeBar>,
    );
    expect(screen.getByRole('link', { name: 'Read the rules' }).getAttribute('href')).toBe('https://example.com/rules');
  });

  it('falls back to its colours when a setting is not a colour', () => {
    render(
      <NoticeBar plugin={{ settings: { text: 'Hi', background: 'red;position:fixed', color: 42 } }}>
        {header}
      </NoticeBar>,
    );
    const note = screen.getByRole('note');
    expect(note.style.background).toBe('#fff4ce');
    expect(note.style.color).toBe('#5c4400');
  });

  it('links only web addresses', () => {
    expect(safeLink('https://example.com')).toBe('https://example.com');
    expect(safeLink('/thread/3')).toBe('/thread/3');
    expect(safeLink('javascript:alert(1)')).toBeUndefined();
    expect(safeLink('data:text/html,x')).toBeUndefined();
    expect(safeLink('')).toBeUndefined();
  });
});
