import { createAction } from '@reduxjs/toolkit';
import { USER_SETTINGS, type UserSettingKey, type UserSettings } from '../../../schema/user';
import { api } from '../../app/api';
import { reportError } from '../../app/report';

/**
 * The user's settings kept by the server (`GET/POST /api/user/settings`, docs/api/users.md): they
 * follow the user to every browser and device. localStorage stays the first-paint cache.
 */

/** The settings as the server sent them, each key checked against its schema (a bad one: the default). */
export function parseUserSettings(data: unknown): UserSettings | null {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const raw = data as Record<string, unknown>;
  const settings: Record<string, unknown> = {};
  for (const [key, { schema, default: fallback }] of Object.entries(USER_SETTINGS)) {
    const parsed = schema.safeParse(raw[key]);
    settings[key] = parsed.success ? parsed.data : fallback;
  }
  return settings as UserSettings;
}

/** GET /api/user/settings; null when it fails (the app then goes on with what this browser has). */
export async function fetchUserSettings(): Promise<UserSettings | null> {
  try {
    return parseUserSettings((await api<unknown>('/api/user/settings')).data);
  } catch (error) {
    reportError('settings', { message: 'could not read them from the server', error });
    return null;
  }
}

/**
 * POST /api/user/settings: one key and its value (spec: one setting per call). It changes no other
 * answer: the page's answers asked for ahead stay (the active workspace saved as a page opens
 * would otherwise drop its database's first rows, read again).
 */
export async function saveUserSetting<K extends UserSettingKey>(key: K, value: UserSettings[K], { keepalive = false } = {}): Promise<void> {
  await api('/api/user/settings', { method: 'POST', body: { key, value }, keepalive, changesOnly: '/api/user/settings' });
}

/** The server's settings arrived (after sign-in, before the shell shows). */
export const userSettingsLoaded = createAction<UserSettings>('settings/userSettingsLoaded');
