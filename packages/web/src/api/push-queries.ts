import type { PushPreferences } from '@luntan/shared';
import type { ApiClient } from './client';

/** The member's push switches and how many of their devices receive pushes (one answer for all their devices). */
export type PushSettings = PushPreferences & { devices: number };

export const pushPreferencesKey = (userId: number) => ['push', 'preferences', userId] as const;

export const pushPreferencesQuery = (api: ApiClient, userId: number) => ({
  queryKey: pushPreferencesKey(userId),
  queryFn: () => api.get<PushSettings>('/api/v3/push/preferences'),
});

/** The site's VAPID public key (base64url): PushManager.subscribe's applicationServerKey. */
export const pushKey = (api: ApiClient) => api.get<{ publicKey: string }>('/api/v3/push/key');
