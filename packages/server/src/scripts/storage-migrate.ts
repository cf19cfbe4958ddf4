import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { ConfigError, loadConfig } from '../config.js';
import { DiskFileStore, S3FileStore, copyFiles, type CopyProgress } from '../core/storage/index.js';

/**
 * `npm run storage:migrate -- --to s3|disk`: copies every file the forum keeps (DATA_DIR/uploads and DATA_DIR/files)
 * from this machine's disk to the bucket STORAGE_URL names, or back. Run it again after a stop: what is already
 * there with the same size is skipped. Nothing is removed from where the files came from. docs/deployment.md.
 */
const USAGE = `Usage: npm run storage:migrate -- --to s3|disk [--concurrency 8]

  --to s3        copy DATA_DIR/uploads and DATA_DIR/files into the bucket of STORAGE_URL
  --to disk      copy the bucket of STORAGE_URL into DATA_DIR/uploads and DATA_DIR/files
  --concurrency  files copied at once (default 8)

STORAGE_URL=s3://KEY:SECRET@BUCKET?endpoint=URL&region=REGION&forcePathStyle=true names the bucket, DATA_DIR the disk.
Files already in the target with the same size are skipped, so a run that stopped can simply be started again.`;

function parse(args: string[]): { to: 's3' | 'disk'; concurrency: number } {
  const { values } = parseArgs({
    args,
    options: {
      to: { type: 'string' },
      concurrency: { type: 'string', default: '8' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.to !== 's3' && values.to !== 'disk') throw new ConfigError(`--to must be s3 or disk.\n\n${USAGE}`);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new ConfigError('--concurrency must be a whole number from 1 to 64.');
  }
  return { to: values.to, concurrency };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** One bar on stderr: files and bytes done (on a terminal; elsewhere a line every ten seconds). */
function progressBar(): CopyProgress {
  const bar = new cliProgress.SingleBar(
    {
      format: 'files |{bar}| {value}/{total} | {done} of {bytes} | {duration_formatted}',
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 10_000,
    },
    cliProgress.Presets.shades_classic,
  );
  let total = 0;
  let done = 0;
  return {
    start(files, bytes) {
      total = bytes;
      bar.start(files, 0, { done: mib(0), bytes: mib(total) });
    },
    advance(file) {
      done += file.size;
      bar.increment(1, { done: mib(done), bytes: mib(total) });
    },
    stop() {
      bar.stop();
    },
  };
}

async function main(): Promise<void> {
  const { to, concurrency } = parse(process.argv.slice(2));
  const config = loadConfig(process.env);
  if (config.storage.kind !== 's3') {
    throw new ConfigError(
      'STORAGE_URL must name the bucket (s3://KEY:SECRET@BUCKET?endpoint=URL&region=REGION&forcePathStyle=true).',
    );
  }
  const disk = new DiskFileStore(config.dataDir);
  const bucket = new S3FileStore(config.storage);
  const [from, target] = to === 's3' ? [disk, bucket] : [bucket, disk];
  const where = `s3://${config.storage.bucket}/${config.storage.prefix}`;
  console.log(to === 's3' ? `Copying ${config.dataDir} to ${where}` : `Copying ${where} to ${config.dataDir}`);
  try {
    const summary = await copyFiles(from, target, { concurrency, progress: progressBar() });
    console.log(
      `${summary.total} files: ${summary.copied} copied (${mib(summary.copiedBytes)}), ` +
        `${summary.skipped} already there, ${summary.failed.length} failed.`,
    );
    if (summary.failed.length > 0) {
      for (const f of summary.failed.slice(0, 20)) console.error(`  ${f.key}: ${f.error}`);
      if (summary.failed.length > 20) console.error(`  ... and ${summary.failed.length - 20} more`);
      console.error('Some files were not copied: run the command again to retry them.');
      process.exitCode = 1;
    } else if (to === 's3') {
      console.log('Done. Start the server with this STORAGE_URL; DATA_DIR/uploads and DATA_DIR/files may then go.');
    } else {
      console.log('Done. Start the server without STORAGE_URL to serve the files from DATA_DIR.');
    }
  } finally {
    await bucket.close();
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(2);
  }
  const why = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  console.error(`storage:migrate failed: ${why}`);
  process.exit(1);
});
