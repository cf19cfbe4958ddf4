import { cleanup, render, screen } from '@testing-library/react';
import { encode } from 'uqr';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CAPTION, modulesPath, qrAddress, SiteQrCode } from './client';

afterEach(cleanup);

/** The dark modules a path draws, as "x,y". */
const drawn = (d: string) => [...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${m[1]},${m[2]}`);

describe('SiteQrCode', () => {
  it("encodes the site's address when no address is set, with the default caption", () => {
    render(<SiteQrCode />);
    const site = `${window.location.origin}/`;
    const code = screen.getByRole('img', { name: site });
    const { data, size } = encode(site, { ecc: 'M', border: 2 });
    expect(code.getAttribute('viewBox')).toBe(`0 0 ${size} ${size}`);
    expect(code.querySelector('path')!.getAttribute('d')).toBe(modulesPath(data));
    expect(screen.getByText(DEFAULT_CAPTION)).toBeTruthy();
  });

  it('encodes the address and shows the caption from the settings', () => {
    render(<SiteQrCode plugin={{ settings: { url: 'https://bbs.example.com/', caption: 'Read us on your phone' } }} />);
    expect(screen.getByRole('img', { name: 'https://bbs.example.com/' })).toBeTruthy();
    expect(screen.getByRole('figure').textContent).toBe('Read us on your phone');
  });

  it("takes a path on this site, and falls back to the site's address for anything but a web address", () => {
    const site = 'https://site.example/';
    expect(qrAddress('', site)).toBe(site);
    expect(qrAddress('http://other.example/x', site)).toBe('http://other.example/x');
    expect(qrAddress('/thread/3', site)).toBe('https://site.example/thread/3');
    expect(qrAddress('javascript:alert(1)', site)).toBe(site);
    expect(qrAddress('mailto:a@b.example', site)).toBe(site);
    // On the server the site's address is not known: a path cannot be resolved yet.
    expect(qrAddress('/thread/3', '')).toBe('');
    expect(qrAddress('https://bbs.example.com/', '')).toBe('https://bbs.example.com/');
  });

  it('draws every dark module once, and only those', () => {
    const { data, size } = encode('https://bbs.example.com/', { ecc: 'M', border: 2 });
    const dark = data.flatMap((row, y) => row.flatMap((on, x) => (on ? [`${x},${y}`] : [])));
    expect(drawn(modulesPath(data))).toEqual(dark);
    // The top-left finder pattern (after the 2-module border): a dark 7×7 ring around a light ring and a dark 3×3.
    const at = (x: number, y: number) => data[y + 2]![x + 2];
    expect([0, 1, 2, 3, 4, 5, 6].map((x) => at(x, 0))).toEqual(Array(7).fill(true));
    expect([0, 1, 2, 3, 4, 5, 6].map((x) => at(x, 1))).toEqual([true, false, false, false, false, false, true]);
    expect([0, 1, 2, 3, 4, 5, 6].map((x) => at(x, 3))).toEqual([true, false, true, true, true, false, true]);
    expect(size).toBe(data.length);
  });
});
