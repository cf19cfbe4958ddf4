import type { CSSProperties } from 'react';

/*
 * The poll's layout. Its controls wear the forum's own classes (lt-button, lt-textbox, lt-check: docs/plugins.md,
 * "Looking like the site"); spacing, colours and sizes come from the forum's design tokens, with a fallback for a
 * page without them (the plugin's tests).
 */
const token = (name: string, fallback: string) => `var(--${name}, ${fallback})`;

const space = (n: 1 | 2 | 3 | 4) => token(`space-${n}`, `${n * 4}px`);

export const site = {
  /** The switch in the editor's toolbar: as tall as the toolbar's buttons, its box and words on one line. */
  toolbarSwitch: {
    height: 32,
    padding: `0 ${space(2)}`,
    color: token('color-text-secondary', '#5b6370'),
    whiteSpace: 'nowrap',
  },
  panel: {
    display: 'flex',
    flexDirection: 'column',
    gap: space(2),
    minWidth: 0,
    margin: 0,
    padding: space(4),
    border: `1px solid ${token('color-border', '#e6e8eb')}`,
    borderRadius: token('radius-md', '8px'),
  },
  legend: { padding: `0 ${space(1)}`, fontSize: token('font-size-sm', '14px'), fontWeight: 600 },
  options: { display: 'flex', flexDirection: 'column', gap: space(2), margin: 0, padding: 0, listStyle: 'none' },
  option: { display: 'flex', alignItems: 'center', gap: space(2) },
  optionNumber: {
    flexShrink: 0,
    minWidth: '1.5em',
    color: token('color-text-tertiary', '#8a919c'),
    fontSize: token('font-size-sm', '14px'),
    textAlign: 'right',
  },
  row: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: space(3) },
  problem: { margin: 0, color: token('color-error', '#dc2626'), fontSize: token('font-size-xs', '12px') },
  card: {
    margin: `${space(4)} 0`,
    padding: space(4),
    border: `1px solid ${token('color-border', '#e6e8eb')}`,
    borderRadius: token('radius-md', '8px'),
  },
  question: { margin: `0 0 ${space(3)}`, fontSize: token('font-size-md', '16px') },
  choices: { display: 'flex', flexDirection: 'column', gap: space(2), margin: `0 0 ${space(3)}` },
  muted: {
    margin: `${space(2)} 0 0`,
    color: token('color-text-tertiary', '#8a919c'),
    fontSize: token('font-size-xs', '12px'),
  },
  bar: { background: token('color-fill', '#f0f2f5'), borderRadius: 4, height: 8 },
  share: { background: token('color-primary', '#2563eb'), borderRadius: 4, height: 8 },
} satisfies Record<string, CSSProperties>;
