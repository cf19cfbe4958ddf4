import { PRIVATE_PREFIX, PUBLIC_PREFIX, contentTypeOfKey, type FileStore } from './file-store.js';

/** What a copy reports as it goes (the migrate command's progress bar). */
export interface CopyProgress {
  start(totalFiles: number, totalBytes: number): void;
  advance(file: { key: string; size: number; copied: boolean }): void;
  stop(): void;
}

export interface CopySummary {
  /** Files in the source. */
  total: number;
  copied: number;
  copiedBytes: number;
  /** Already in the target with the same size (a run that stopped and started again). */
  skipped: number;
  failed: { key: string; error: string }[];
}

/**
 * Copies every file of the forum (uploads/ and files/) from one store to another. A file already in the target with
 * the same size is skipped, so a run that stopped half way starts again where it was. Nothing is removed from the
 * source. Failures are collected, not thrown: the rest is still copied, and the caller decides how to end.
 */
export async function copyFiles(
  from: FileStore,
  to: FileStore,
  options: { concurrency?: number; progress?: CopyProgress } = {},
): Promise<CopySummary> {
  const prefixes = [PUBLIC_PREFIX, PRIVATE_PREFIX];
  const source: { key: string; size: number }[] = [];
  const present = new Map<string, number>();
  for (const prefix of prefixes) {
    for await (const o of from.list(prefix)) source.push(o);
    for await (const o of to.list(prefix)) present.set(o.key, o.size);
  }
  source.sort((a, b) => (a.key < b.key ? -1 : 1));
  const summary: CopySummary = { total: source.length, copied: 0, copiedBytes: 0, skipped: 0, failed: [] };
  options.progress?.start(
    source.length,
    source.reduce((sum, o) => sum + o.size, 0),
  );
  let next = 0;
  const worker = async () => {
    while (next < source.length) {
      const o = source[next++]!;
      if (present.get(o.key) === o.size) {
        summary.skipped += 1;
        options.progress?.advance({ ...o, copied: false });
        continue;
      }
      try {
        const bytes = await from.read(o.key);
        if (!bytes) throw new Error('gone from the source while copying');
        await to.put(
          o.key,
          bytes,
          o.key.startsWith(PRIVATE_PREFIX) ? 'application/octet-stream' : contentTypeOfKey(o.key),
        );
        summary.copied += 1;
        summary.copiedBytes += bytes.length;
      } catch (err) {
        summary.failed.push({ key: o.key, error: err instanceof Error ? err.message : String(err) });
      }
      options.progress?.advance({ ...o, copied: true });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  } finally {
    options.progress?.stop();
  }
  summary.failed.sort((a, b) => (a.key < b.key ? -1 : 1));
  return summary;
}
