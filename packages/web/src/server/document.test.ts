import { describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../boot-state';
import { renderDocument, renderDocumentHead, renderDocumentRest, type DocumentParts } from './document';

const parts: DocumentParts = {
  lang: 'zh-CN',
  platform: 'pc',
  title: 'T',
  keywords: '',
  description: '',
  favicon: '/f.svg',
  siteStat: '',
  appHtml: '<main></main>',
  bootStateJson: '{}',
  routerStateJson: '{}',
  stylesheets: [],
  modulePreloads: ['/assets/chunk.js'],
  entryScript: '/assets/entry.js',
};

describe('the document', () => {
  it('puts the plugin import map before every module script and preload', () => {
    const map = { imports: { react: '/assets/plugin-runtime/react-1.js' } };
    const html = renderDocument({ ...parts, importMapJson: scriptSafeJson(map) });
    const importMap = html.indexOf('<script type="importmap">{"imports":{"react":');
    expect(importMap).toBeGreaterThan(0);
    expect(importMap).toBeLessThan(html.indexOf('rel="modulepreload"'));
    expect(importMap).toBeLessThan(html.indexOf('type="module"'));
  });

  it('has no nonce, and no code but the entry module: data goes in JSON blocks that never run', () => {
    const html = renderDocument({ ...parts, siteStat: '<script>window.stat = 1</script>' });
    expect(html).not.toContain('nonce');
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toEqual([
      '<script type="application/json" id="luntan-state">',
      '<script type="application/json" id="luntan-router">',
      '<script type="module" src="/assets/entry.js">',
      // The administrator's snippet, as it was saved (the policy allows it by its hash).
      '<script>',
    ]);
  });

  it('has no import map when the build wrote none', () => {
    expect(renderDocument(parts)).not.toContain('importmap');
  });

  it('splits into the head, sent first, and the rest, byte for byte the whole document', () => {
    const full = { ...parts, stylesheets: ['/assets/style.css'], siteStat: '<script>window.stat = 1</script>' };
    const head = renderDocumentHead(full);
    // The head names what the browser fetches while the app renders, and holds nothing of the app.
    expect(head).toMatch(/^<!doctype html><html [^>]*><head>.*<\/head><body>$/);
    expect(head).toContain('<link rel="stylesheet" href="/assets/style.css">');
    expect(head).toContain('<link rel="modulepreload" href="/assets/chunk.js">');
    expect(head).not.toContain('<main>');
    expect(renderDocumentRest(full).join('')).toMatch(/^<div id="root"><main><\/main><\/div>.*<\/body><\/html>$/);
    expect(head + renderDocumentRest(full).join('')).toBe(renderDocument(full));
  });
});
