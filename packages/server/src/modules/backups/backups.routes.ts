import {
  backupCreateBody,
  backupIdBody,
  backupIdQuery,
  backupScheduleBody,
  type BackupListData,
  type BackupListItem,
  type BackupLocation,
  type BackupOrigin,
  type BackupStatus,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../../access/guards.js';
import {
  deleteBackup,
  listBackups,
  openArchive,
  readSchedule,
  startBackup,
  writeSchedule,
  type BackupRow,
  type BackupsDeps,
} from './backups.service.js';

const TAGS = ['backups', 'admin'];

function listItem(row: BackupRow): BackupListItem {
  const m = row.manifest;
  return {
    id: row.id,
    name: row.name,
    status: row.status as BackupStatus,
    origin: row.origin as BackupOrigin,
    location: row.location as BackupLocation,
    bytes: row.bytes,
    error: row.error,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    available: row.available,
    counts: m ? { users: m.counts.users, threads: m.counts.threads, posts: m.counts.posts } : null,
    walletSum: m?.walletSum ?? null,
    databaseKind: m?.database.kind ?? null,
    files: !m ? null : m.files.where === 'archive' ? m.files : { where: 'bucket' },
  };
}

export async function backupsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const deps: BackupsDeps = { database: ctx.database, config: ctx.config, files: ctx.files };

  api.get(
    '/backAdmin/backups',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: "The backups (newest first: status, size, the manifest's counts) and the daily schedule",
      },
    },
    async (request) => {
      const data: BackupListData = {
        backups: (await listBackups(deps)).map(listItem),
        schedule: await readSchedule(ctx.db),
      };
      return ok(request, data);
    },
  );

  api.post(
    '/backAdmin/backups',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'Make a backup now: answers its id once it has started; -4005 while another backup runs',
        description:
          'The archive (database snapshot, files, manifest) is made in the background: GET /api/backAdmin/backups ' +
          'shows it running, then done or failed. docs/operations.md.',
        body: backupCreateBody,
      },
    },
    async (request) => ok(request, await startBackup(deps, request.viewer!.user!.id, request.log)),
  );

  api.post(
    '/backAdmin/backups.delete',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'Delete a backup and its archive; -4005 while it is being made',
        body: backupIdBody,
      },
    },
    async (request) => {
      await deleteBackup(deps, request.body.id);
      return ok(request, {});
    },
  );

  api.post(
    '/backAdmin/backups.schedule',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'The daily backup: on or off, its time (HH:MM, server time) and how many scheduled archives to keep',
        body: backupScheduleBody,
      },
    },
    async (request) => ok(request, await writeSchedule(ctx.db, request.body)),
  );

  api.get(
    '/backAdmin/backups/download',
    {
      onRequest: adminOnly,
      schema: {
        tags: TAGS,
        summary: 'The archive itself (application/gzip, as an attachment); -4004 when it is not on this machine',
        querystring: backupIdQuery,
      },
    },
    async (request, reply) => {
      const archive = await openArchive(deps, request.query.id);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-length', String(archive.bytes))
        .header('content-disposition', `attachment; filename="${archive.name}"`)
        .header('cache-control', 'no-store')
        .send(archive.stream);
    },
  );
}
