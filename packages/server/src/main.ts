import cluster from 'node:cluster';
import { runClusterPrimary } from './cluster-primary.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { SeedResult } from './seed.js';
import { createServer } from './server.js';
import { stopSignal, stopServing } from './stop.js';

/**
 * `npm start` (scripts/start.sh makes this npm's own child). WORKERS=1: this one process prepares the database,
 * serves, and stops gracefully on SIGINT/SIGTERM (stop.ts). WORKERS>1: this process becomes node:cluster's primary
 * (cluster-primary.ts), which passes the stop on to its workers; each worker runs this file again as a worker.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const stopAsked = stopSignal();
  if (cluster.isWorker) {
    await serve(config, { prepare: false }, stopAsked);
    return;
  }
  if (config.workers > 1) {
    const seeded = await runClusterPrimary(
      config,
      { info: (msg) => console.log(msg), error: (msg) => console.error(msg) },
      stopAsked,
    );
    console.log(banner(config, seeded));
    return;
  }
  const seeded = await serve(config, { prepare: true }, stopAsked);
  console.log(banner(config, seeded));
}

/** Builds the app, listens, and stops gracefully once a stop is asked for. */
async function serve(
  config: Config,
  options: { prepare: boolean },
  stopAsked: Promise<NodeJS.Signals>,
): Promise<SeedResult> {
  const server = await createServer(config, options);
  await server.app.listen({ port: config.port, host: config.host });
  void stopAsked.then((signal) => stopServing(server, signal, config.stopGraceMs));
  return server.seeded;
}

function banner(config: Config, seeded: SeedResult): string {
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = `http://${shownHost}:${config.port}`;
  const lines = [
    '',
    `  Luntan is running at ${address}`,
    `  Database: ${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}`,
  ];
  if (config.workers > 1) lines.push(`  Processes: ${config.workers} workers (WORKERS)`);
  if (seeded.admin) {
    lines.push(`  Administrator created: sign in at ${address}/user/login as "${seeded.admin.username}"`);
    lines.push(
      seeded.admin.password
        ? `  with the password ${seeded.admin.password}  (shown once: write it down)`
        : '  with the password from ADMIN_PASSWORD',
    );
  } else {
    lines.push(`  Sign in at ${address}/user/login with your administrator account.`);
  }
  lines.push(`  API documentation: ${address}/api/docs`, '');
  return lines.join('\n');
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
