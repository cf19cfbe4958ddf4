import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AboutPage, DEFAULT_TITLE, paragraphs } from './client';

afterEach(cleanup);

describe('AboutPage', () => {
  it('shows the title and the text as paragraphs, keeping line breaks', () => {
    render(
      <AboutPage
        plugin={{ settings: { title: 'About Luntan', body: 'We talk about tea.\nEvery day.\n\n  Join us!  \n\n\n' } }}
      />,
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('About Luntan');
    const shown = [...document.querySelectorAll('article p')].map((p) => p.textContent);
    expect(shown).toEqual(['We talk about tea.\nEvery day.', 'Join us!']);
    expect(document.title).toBe('About Luntan');
  });

  it('shows Markdown and HTML as the plain text they are', () => {
    render(
      <AboutPage plugin={{ settings: { title: 'T', body: '**bold** <b>not bold</b> [link](https://x.example)' } }} />,
    );
    expect(document.querySelector('article b, article strong, article a')).toBeNull();
    expect(screen.getByText('**bold** <b>not bold</b> [link](https://x.example)')).toBeTruthy();
  });

  it('uses the default title when none is set, and shows no text while the body is empty', () => {
    render(<AboutPage plugin={{ settings: { title: '  ', body: 3 } }} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(DEFAULT_TITLE);
    expect(document.querySelectorAll('article p')).toHaveLength(0);
    cleanup();
    render(<AboutPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(DEFAULT_TITLE);
  });

  it("gives the page's title back when it leaves", () => {
    document.title = 'Forum';
    const { unmount } = render(<AboutPage plugin={{ settings: { title: 'About' } }} />);
    expect(document.title).toBe('About');
    unmount();
    expect(document.title).toBe('Forum');
  });

  it('splits paragraphs on blank lines of any line ending', () => {
    expect(paragraphs('a\r\n\r\nb\rc\n \nd')).toEqual(['a', 'b\nc', 'd']);
    expect(paragraphs('')).toEqual([]);
  });
});
