import { createHash } from 'node:crypto';
import { nicknameSchema, type UpdateUserBody, type UserProfile } from '@luntan/shared';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { loadSharp } from '../../core/sharp.js';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../core/errors.js';
import { decodeOptions, decodeUpload, readImageHeader } from '../../core/image-input.js';
import { readMultipartUpload } from '../../core/multipart.js';
import { PUBLIC_PREFIX, type FileStore } from '../../core/storage/index.js';
import { now } from '../../core/time.js';
import type { UserUpdate } from '../../db/schema.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { refuseApiKeyForIdentity } from '../../access/api-key-scope.js';
import { readProfile } from '../people/index.js';
import { screenText, wordRefused } from '../stop-words/index.js';
import { changePassword } from '../users/index.js';
import { findUserById, updateUser } from '../users/index.js';
import { applyUsernameChoice, checkUsernameChoice } from '../users/index.js';
import { msg } from '../../i18n/index.js';

/** Largest avatar or background upload, bytes. */
export const PROFILE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * POST /api/v3/users/update.user: the fields given change, all or none. Nickname and signature pass the stop words
 * of their kind; a password change needs the current password (unless the account still has the random one an
 * outside sign-in or a first SMS sign-in gave it) and signs out every other session; a username the site made up may
 * be replaced once (checkUsernameChoice).
 */
export async function updateOwnProfile(
  ctx: AppContext,
  viewer: ViewerContext,
  body: UpdateUserBody,
  ip: string,
): Promise<UserProfile> {
  const me = requireUser(viewer);
  // The password and the username are how one signs in: no API key may change them (its other fields it may).
  if (body.password !== undefined || body.newPassword !== undefined || body.username !== undefined) {
    refuseApiKeyForIdentity(viewer);
  }
  const changes: UserUpdate = {};
  const username =
    body.username !== undefined ? await checkUsernameChoice(ctx.db, ctx.stopWords, me.id, body.username) : null;
  if (body.nickname !== undefined) {
    const screened = await screenText(ctx.db, ctx.stopWords, 'nickname', body.nickname, 'nickname');
    const checked = nicknameSchema.safeParse(screened.text);
    if (!checked.success) throw wordRefused('nickname', screened.replacedWord ?? '');
    changes.nickname = checked.data;
  }
  if (body.signature !== undefined) {
    changes.signature = (await screenText(ctx.db, ctx.stopWords, 'signature', body.signature, 'signature')).text;
  }
  if (body.likesPublic !== undefined) changes.likesPublic = body.likesPublic ? 1 : 0;
  if (body.locale !== undefined) changes.locale = body.locale;
  if (body.newPassword !== undefined) {
    const throttle = { limiter: ctx.limits.login, ip };
    await changePassword(ctx.db, throttle, me.id, viewer.tokenId, body.password ?? '', body.newPassword);
  }
  if (username !== null || Object.keys(changes).length > 0) {
    const before = await findUserById(ctx.db, me.id);
    await ctx.db.transaction().execute(async (trx) => {
      if (username !== null) await applyUsernameChoice(trx, me.id, username);
      if (Object.keys(changes).length > 0) await updateUser(trx, me.id, { ...changes, updatedAt: now() });
      const names = {
        username: username ?? before?.username ?? '',
        nickname: changes.nickname ?? before?.nickname ?? '',
      };
      // Mentions show the member's names: the posts naming them are rendered again (modules/rerender).
      if (before && (names.username !== before.username || names.nickname !== before.nickname)) {
        const was = { username: before.username, nickname: before.nickname };
        await ctx.events.emit(trx, 'user.renamed', { userId: me.id, before: was, after: names });
      }
    });
  }
  return readProfile(ctx.db, viewer, me.id);
}

type ProfileImage = 'avatar' | 'background';

const IMAGE_DIRS: Record<ProfileImage, string> = { avatar: 'avatars', background: 'backgrounds' };

/**
 * POST /api/v3/users/avatar and /background: a multipart image (judged from its bytes, never its name), resized
 * (an avatar to 240x240, a background to at most 1600 px wide) and stored as WebP, animated GIF avatars as GIF;
 * the previous file is removed. Answers the new profile.
 */
export async function replaceProfileImage(
  ctx: AppContext,
  request: FastifyRequest,
  kind: ProfileImage,
): Promise<UserProfile> {
  const me = requireUser(request.viewer);
  const field = kind;
  const { file } = await readMultipartUpload(request, {
    field,
    label: kind === 'avatar' ? msg('account.avatar') : msg('account.backgroundImage'),
    fileSize: PROFILE_IMAGE_MAX_BYTES,
  });
  if (!file) throw invalidField(field, msg('account.chooseImageUpload'));
  const { bytes, ext } = await processImage(file.bytes, kind, field, request.log);
  const url = await putProfileImage(ctx.files, me.id, kind, bytes, ext);
  const before = await findUserById(ctx.db, me.id);
  const previous = kind === 'avatar' ? before?.avatar : before?.background;
  await updateUser(
    ctx.db,
    me.id,
    kind === 'avatar' ? { avatar: url, updatedAt: now() } : { background: url, updatedAt: now() },
  );
  if (previous && previous !== url) await removeProfileImage(ctx.files, kind, previous);
  return readProfile(ctx.db, request.viewer, me.id);
}

/**
 * An avatar or background brought from another site (the Discuz! Q importer): resized and stored as an upload would
 * be; answers its address, or null when the bytes are no image we take.
 */
export async function storeImportedProfileImage(
  files: FileStore,
  userId: number,
  kind: ProfileImage,
  input: Buffer,
  log: FastifyBaseLogger,
): Promise<string | null> {
  let processed: { bytes: Buffer; ext: string };
  try {
    processed = await processImage(input, kind, kind, log);
  } catch {
    return null;
  }
  return putProfileImage(files, userId, kind, processed.bytes, processed.ext);
}

/** Stores the image under uploads/avatars or uploads/backgrounds, named by its owner and bytes; answers its address. */
async function putProfileImage(
  files: FileStore,
  userId: number,
  kind: ProfileImage,
  bytes: Buffer,
  ext: string,
): Promise<string> {
  const name = `${userId}-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${ext}`;
  const key = `${PUBLIC_PREFIX}${IMAGE_DIRS[kind]}/${name}`;
  await files.put(key, bytes, ext === 'gif' ? 'image/gif' : 'image/webp');
  return `/${key}`;
}

async function processImage(
  input: Buffer,
  kind: ProfileImage,
  field: string,
  log: FastifyBaseLogger,
): Promise<{ bytes: Buffer; ext: string }> {
  const header = await readImageHeader(input, field, ['jpeg', 'png', 'gif', 'webp'], msg('account.onlyJpegPngGif'));
  const animated = header.pages > 1;
  const image = (await loadSharp())(input, decodeOptions(animated)).rotate();
  const resized =
    kind === 'avatar'
      ? image.resize(240, 240, { fit: 'cover' })
      : image.resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true });
  return decodeUpload(
    field,
    async () => {
      if (kind === 'avatar' && animated && header.format === 'gif')
        return { bytes: await resized.gif().toBuffer(), ext: 'gif' };
      return { bytes: await resized.webp({ quality: 85 }).toBuffer(), ext: 'webp' };
    },
    log,
  );
}

async function removeProfileImage(files: FileStore, kind: ProfileImage, publicPath: string): Promise<void> {
  const match = new RegExp(`^/uploads/${IMAGE_DIRS[kind]}/([\\w.-]+)$`).exec(publicPath);
  if (!match) return;
  await files.delete(`${PUBLIC_PREFIX}${IMAGE_DIRS[kind]}/${match[1]!}`);
}
