/**
 * Custom page: an About page (add_page_hook, path `about`, so /plugin/custom-page/about) whose title and text are
 * the plugin's settings. The text is plain: blank lines part paragraphs, single line breaks are kept, nothing is
 * read as Markdown or HTML.
 */
import { useEffect } from 'react';

type SettingValue = string | number | boolean;

/** The render inputs this plugin reads (the forum passes more). */
export interface AboutPageProps {
  /** Which plugin is rendered: its public settings are here. */
  plugin?: { settings: Record<string, SettingValue> };
}

export const DEFAULT_TITLE = '关于本站';

const text = (value: SettingValue | undefined): string => (typeof value === 'string' ? value : '');

/** The paragraphs of a plain text: split on blank lines, each trimmed, empty ones dropped. */
export function paragraphs(body: string): string[] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((part) => part.trim())
    .filter(Boolean);
}

export function AboutPage({ plugin }: AboutPageProps) {
  const settings = plugin?.settings ?? {};
  const title = text(settings.title).trim() || DEFAULT_TITLE;

  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);

  return (
    <article data-plugin="custom-page" style={{ maxWidth: 760, margin: '0 auto', padding: '24px 16px' }}>
      <h1 style={{ fontSize: 24, margin: '0 0 16px' }}>{title}</h1>
      {paragraphs(text(settings.body)).map((paragraph, i) => (
        <p key={i} style={{ whiteSpace: 'pre-line', lineHeight: 1.8, margin: '0 0 12px' }}>
          {paragraph}
        </p>
      ))}
    </article>
  );
}
