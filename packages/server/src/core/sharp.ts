import type Sharp from 'sharp';

/** sharp's entry point (called as `sharp(input, options)`). */
export type SharpLib = typeof Sharp;

let loading: Promise<SharpLib> | null = null;

/**
 * sharp (libvips), loaded the first time an image is handled: loading it costs a process about 20 MB of memory
 * (libvips and its libraries), which a process that serves no image never pays (docs/performance.md, "eleventh part").
 * Ground floor: every module that decodes or encodes an image reaches sharp through here.
 */
export function loadSharp(): Promise<SharpLib> {
  loading ??= import('sharp').then(
    (module) => module.default,
    (error: unknown) => {
      // Not kept: the next image tries again (and fails with the same reason if it is still missing).
      loading = null;
      throw error;
    },
  );
  return loading;
}
