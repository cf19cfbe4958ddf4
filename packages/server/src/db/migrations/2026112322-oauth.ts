import { sql, type Kysely } from 'kysely';
import { idColumn } from '../migration-helpers.js';

/*
 * Signing in with other services (docs/accounts-oauth.md): the OpenID Connect providers an administrator
 * configured, the outside identities linked to accounts (OpenID Connect subjects and WeChat ids), the short-lived
 * state of a sign-in under way, the desktop's WeChat QR sessions, and the random password of accounts that an outside
 * sign-in created (while it is unchanged the account has no password its owner knows).
 * Immutable once on main: later changes go in a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumn(db, db.schema.createTable('oauth_providers'))
    .addColumn('slug', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('issuer', 'varchar(500)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('label_zh', 'varchar(50)', (c) => c.notNull())
    .addColumn('label_en', 'varchar(50)', (c) => c.notNull())
    .addColumn('scopes', 'varchar(255)', (c) => c.notNull().defaultTo(sql`'openid profile email'`))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  // kind 'oidc' (provider_id: oauth_providers.id) or 'wechat' (provider_id 0; subject: the unionid, else the openid).
  await idColumn(db, db.schema.createTable('user_identities'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('provider_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)', (c) => c.notNull().defaultTo(sql`''`))
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull().defaultTo(sql`''`))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // One account per outside identity, and one identity per provider for an account.
  await db.schema
    .createIndex('user_identities_subject_uq')
    .on('user_identities')
    .columns(['kind', 'provider_id', 'subject'])
    .unique()
    .execute();
  await db.schema
    .createIndex('user_identities_user_uq')
    .on('user_identities')
    .columns(['user_id', 'kind', 'provider_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('oauth_states')
    .addColumn('state', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('provider_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull().defaultTo(sql`''`))
    .addColumn('nonce', 'varchar(64)', (c) => c.notNull().defaultTo(sql`''`))
    .addColumn('redirect', 'varchar(500)', (c) => c.notNull().defaultTo(sql`'/'`))
    .addColumn('user_id', 'integer')
    .addColumn('qr_token', 'varchar(64)')
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_states_expires_idx').on('oauth_states').column('expires_at').execute();

  await db.schema
    .createTable('wechat_qr_sessions')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo(sql`'pending'`))
    .addColumn('error_code', 'integer')
    .addColumn('error_message', 'varchar(255)', (c) => c.notNull().defaultTo(sql`''`))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wechat_qr_sessions_expires_idx').on('wechat_qr_sessions').column('expires_at').execute();

  await db.schema
    .createTable('user_generated_passwords')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_generated_passwords').execute();
  await db.schema.dropTable('wechat_qr_sessions').execute();
  await db.schema.dropTable('oauth_states').execute();
  await db.schema.dropTable('user_identities').execute();
  await db.schema.dropTable('oauth_providers').execute();
}
