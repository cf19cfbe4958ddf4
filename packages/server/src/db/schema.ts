import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table shapes as the code sees them (camelCase; the CamelCasePlugin maps them to snake_case columns).
 * Times are ISO-8601 UTC strings on both databases, booleans are 0/1, money is integer cents.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lower-cased username, unique: usernames are unique without regard to case. */
  usernameNormalized: string;
  nickname: string;
  passwordHash: string;
  avatar: string;
  signature: string;
  status: number;
  rejectReason: string;
  threadCount: Generated<number>;
  postCount: Generated<number>;
  likedCount: Generated<number>;
  followCount: Generated<number>;
  fansCount: Generated<number>;
  registerIp: string;
  lastLoginIp: string;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  type: string;
  color: string;
  icon: string;
  isDefault: number;
  isDisplay: number;
  isPaid: number;
  feeCents: number;
  days: number;
  scale: number;
  isSubordinate: number;
  isCommission: number;
  createdAt: string;
  updatedAt: string;
}

export interface GroupUserTable {
  groupId: number;
  userId: number;
  expiresAt: string | null;
}

export interface GroupPermissionTable {
  groupId: number;
  permission: string;
}

export interface SettingsTable {
  key: string;
  tag: string;
  value: string;
}

export interface AccessTokensTable {
  id: Generated<number>;
  userId: number;
  /** SHA-256 of the token, hex: the token itself is never stored. */
  tokenHash: string;
  ip: string;
  userAgent: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface NotificationsTable {
  id: Generated<number>;
  userId: number;
  /** The family's notification type (system, replied, liked, related, rewarded, ...). */
  type: string;
  /** Which message-centre tab counts it: account, financial or thread. */
  category: string;
  title: string;
  content: string;
  data: string;
  readAt: string | null;
  createdAt: string;
}

export interface DB {
  users: UsersTable;
  groups: GroupsTable;
  groupUser: GroupUserTable;
  groupPermission: GroupPermissionTable;
  settings: SettingsTable;
  accessTokens: AccessTokensTable;
  notifications: NotificationsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Group = Selectable<GroupsTable>;
