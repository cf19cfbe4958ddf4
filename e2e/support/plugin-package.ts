import { gzipSync } from 'node:zlib';

/**
 * Plugin packages made by the browser tests: a plugin.json and an ES module, packed as a .tgz with a small
 * ustar writer (no dependency), as an author's pack tool would.
 */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512, 0);
  const field = (text: string, offset: number, length: number) => header.write(text, offset, length, 'utf8');
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0') + '\0';
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: name too long: ${name}`);
  field(name, 0, 100);
  field(octal(0o644, 8), 100, 8);
  field(octal(0, 8), 108, 8);
  field(octal(0, 8), 116, 8);
  field(octal(size, 12), 124, 12);
  field(octal(Math.floor(Date.now() / 1000), 12), 136, 12);
  field('        ', 148, 8); // the checksum counts itself as spaces
  field('0', 156, 1);
  field('ustar\0', 257, 6);
  field('00', 263, 2);
  let sum = 0;
  for (const byte of header) sum += byte;
  field(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return header;
}

export function tgz(files: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of Object.entries(files)) {
    const body = Buffer.from(text, 'utf8');
    parts.push(tarHeader(name, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512, 0));
  }
  parts.push(Buffer.alloc(1024, 0));
  return gzipSync(Buffer.concat(parts));
}

export interface TestPlugin {
  appid: string;
  pluginName: string;
  version?: string;
  platform?: Array<'pc' | 'h5' | 'mini'>;
  entries: Array<{ target: string; hookName: string; component: string; path?: string }>;
  settings?: unknown[];
  /** The client module (an ES module importing only react, react/jsx-runtime and @luntan/plugin-sdk). */
  client: string;
}

/** The .tgz of a test plugin. */
export function pluginPackage(plugin: TestPlugin): Buffer {
  const manifest = {
    pluginName: plugin.pluginName,
    version: plugin.version ?? '1.0.0',
    author: { name: 'E2E', email: 'e2e@example.com' },
    type: 'widget',
    appid: plugin.appid,
    platform: plugin.platform ?? ['pc', 'h5'],
    entries: plugin.entries,
    settings: plugin.settings ?? [],
    client: 'client.js',
  };
  return tgz({ 'plugin.json': JSON.stringify(manifest, null, 2), 'client.js': plugin.client });
}
