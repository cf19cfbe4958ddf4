import cluster from 'node:cluster';
import { runClusterPrimary } from './cluster-primary.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { SeedResult } from './db/seed.js';
import { createServer } from './server.js';

/**
 * `npm start`. WORKERS=1: this one process prepares the database, serves, and stops on SIGINT/SIGTERM. WORKERS>1:
 * this process becomes node:cluster's primary (cluster-primary.ts) and each worker runs this file again as a worker.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (cluster.isWorker) {
    await serve(config, { prepare: false });
    return;
  }
  if (config.workers > 1) {
    const seeded = await runClusterPrimary(config, {
      info: (msg) => console.log(msg),
      error: (msg) => console.error(msg),
    });
    console.log(banner(config, seeded));
    return;
  }
  const seeded = await serve(config, { prepare: true });
  console.log(banner(config, seeded));
}

/** Builds the app, listens, and stops on SIGINT/SIGTERM. */
async function serve(config: Config, options: { prepare: boolean }): Promise<SeedResult> {
  const server = await createServer(config, options);
  const { app } = server;
  await app.listen({ port: config.port, host: config.host });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
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
