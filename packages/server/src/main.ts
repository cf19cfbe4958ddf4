import { ConfigError, loadConfig } from './config.js';
import { createServer } from './server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await createServer(config);
  const { app, seeded } = server;
  await app.listen({ port: config.port, host: config.host });

  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = `http://${shownHost}:${config.port}`;
  const lines = [
    '',
    `  Luntan is running at ${address}`,
    `  Database: ${server.database.dialect === 'sqlite' ? `SQLite in ${config.dataDir}` : 'PostgreSQL'}`,
  ];
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
  console.log(lines.join('\n'));

  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
