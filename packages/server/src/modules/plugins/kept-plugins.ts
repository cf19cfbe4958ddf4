import type { PluginManifest } from '@luntan/shared';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import { VersionedValue } from '../../core/cache-versions.js';
import type { PluginsTable } from '../../db/schema.js';
import { listPluginRows } from './plugins.repository.js';

/** An enabled plugin as the pages' plugin list reads it: its record and its parsed manifest. */
export interface EnabledPlugin {
  row: Readonly<Selectable<PluginsTable>>;
  manifest: PluginManifest;
}

const kept = new WeakMap<AppContext, VersionedValue<readonly EnabledPlugin[]>>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The enabled plugins, oldest first, read and their manifests parsed once while the `plugins` counter stays where it
 * was: every install, upgrade, enabling, disabling, settings change and removal raises it (plugins.service.ts) before
 * its answer, and every /api request and page render reads the counters first, so no process answers from an older
 * set. Every page render and plugin list call read them (one statement and a manifest check per plugin each time).
 * For a request's path only (a job off it has read no counter); shared by requests, so frozen: read, never changed.
 */
export function enabledPluginsOf(
  ctx: AppContext,
  parse: (row: Selectable<PluginsTable>) => PluginManifest,
): Promise<readonly EnabledPlugin[]> {
  let value = kept.get(ctx);
  if (!value) {
    value = new VersionedValue(ctx.versions, 'plugins', async () =>
      deepFreeze((await listPluginRows(ctx.db, true)).map((row) => ({ row, manifest: parse(row) }))),
    );
    kept.set(ctx, value);
  }
  return value.get();
}
