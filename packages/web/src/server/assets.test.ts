import { describe, expect, it } from 'vitest';
import { CLIENT_ENTRY, pageAssets, type Manifest } from './assets';

const manifest = (): Manifest => ({
  [CLIENT_ENTRY]: { file: 'assets/entry.js', isEntry: true, imports: ['_shared.js'] },
  '_shared.js': { file: 'assets/shared.js' },
  'src/routes/home.tsx': { file: 'assets/home.js', imports: ['_card.js', '_shared.js'], css: ['assets/home.css'] },
  '_card.js': { file: 'assets/card.js' },
  'src/routes/thread.tsx': { file: 'assets/thread.js' },
  'style.css': { file: 'assets/style.css' },
});

describe('pageAssets', () => {
  it('lists the entry, every stylesheet and the preloads of the entry and the page', () => {
    expect(pageAssets(manifest(), ['src/routes/home.tsx'])).toEqual({
      entryScript: '/assets/entry.js',
      stylesheets: ['/assets/style.css', '/assets/home.css'],
      modulePreloads: ['/assets/shared.js', '/assets/home.js', '/assets/card.js'],
    });
    expect(pageAssets(null, ['src/routes/home.tsx'])).toEqual({
      entryScript: null,
      stylesheets: [],
      modulePreloads: [],
    });
  });

  it('walks the manifest once per set of sources and gives each set its own', () => {
    const read = manifest();
    const home = pageAssets(read, ['src/routes/home.tsx']);
    expect(pageAssets(read, ['src/routes/home.tsx'])).toBe(home);
    const thread = pageAssets(read, ['src/routes/thread.tsx']);
    expect(thread.modulePreloads).toEqual(['/assets/shared.js', '/assets/thread.js']);
    expect(pageAssets(read, ['src/routes/home.tsx', 'src/routes/thread.tsx']).modulePreloads).toEqual([
      '/assets/shared.js',
      '/assets/home.js',
      '/assets/card.js',
      '/assets/thread.js',
    ]);
    // Another manifest (a new build) is walked anew.
    const rebuilt = { ...read, 'src/routes/home.tsx': { file: 'assets/home-2.js' } };
    expect(pageAssets(rebuilt, ['src/routes/home.tsx']).modulePreloads).toEqual([
      '/assets/shared.js',
      '/assets/home-2.js',
    ]);
  });
});
