import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { WireUser } from '../../../schema/user';
import { api, ApiRequestError, clearPrefetched } from '../../app/api';
import { forgetPageLinkTargets } from '../../editor/pageLinkTargets';
import { appFolds } from '../../editor/folding';

export interface AuthState {
  status: 'unknown' | 'signedIn' | 'signedOut';
  user: WireUser | null;
}

const initialState: AuthState = { status: 'unknown', user: null };

/** Whether the question below is being asked (it is asked at start and by the screens: once at a time). */
let checking = false;

/** Who is signed in (a 401 means nobody). Not asked again while the answer is on its way. */
export const loadCurrentUser = createAsyncThunk(
  'auth/loadCurrentUser',
  async () => {
    checking = true;
    try {
      return (await api<WireUser>('/api/user/current')).data;
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 401) return null;
      throw error;
    } finally {
      checking = false;
    }
  },
  { condition: () => !checking },
);

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

export async function sendCode(email: string): Promise<void> {
  await api('/api/auth/send_code', { method: 'POST', body: form({ email }) });
}

/** Checks the code; on success the server sets the session cookie and answers with the user. */
export async function login(email: string, pin: string): Promise<WireUser> {
  return (await api<WireUser>('/api/auth/login', { method: 'POST', body: form({ email, pin }) })).data;
}

/** The external sign-in provider, if the server has one (GET /api/auth/oauth). */
export interface OAuthProviderInfo {
  enabled: boolean;
  service: string | null;
  name: string | null;
}

export async function oauthProvider(): Promise<OAuthProviderInfo> {
  return (await api<OAuthProviderInfo>('/api/auth/oauth')).data;
}

/** Where to return after signing in: a path of this app only (never another site). */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') && !next.startsWith('/login') ? next : '/';
}

const OAUTH_NEXT_KEY = 'oauthNext';

/** Starts signing in with the provider: remembers where to return, then leaves for the provider. */
export async function startOAuth(service: string, next: string): Promise<void> {
  const { url } = (await api<{ url: string }>('/api/auth/oauth', { method: 'POST', body: form({ service }) })).data;
  sessionStorage.setItem(OAUTH_NEXT_KEY, safeNext(next));
  window.location.assign(url);
}

/** Finishes it on /oauth/callback: the server checks state and code and sets the session cookie. */
export async function finishOAuth(state: string, code: string): Promise<{ user: WireUser; next: string }> {
  const user = (await api<WireUser>('/api/auth/oauth/code', { method: 'POST', body: form({ state, code }) })).data;
  const next = safeNext(sessionStorage.getItem(OAUTH_NEXT_KEY));
  sessionStorage.removeItem(OAUTH_NEXT_KEY);
  return { user, next };
}

export const signOut = createAsyncThunk('auth/signOut', async () => {
  await api('/api/auth/logout');
  // Nothing read for the last person is used for the next one in this tab.
  clearPrefetched();
  forgetPageLinkTargets();
  appFolds.reset();
});

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    /** The current user signed in or updated (their profile saved); an anonymous user is never taken as the current one (spec §5): nothing changes. */
    signedIn(state, action: PayloadAction<WireUser>) {
      if (action.payload.anonymous) return;
      state.user = action.payload;
      state.status = 'signedIn';
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadCurrentUser.fulfilled, (state, action) => {
        // An anonymous answer is no one signed in.
        const user = action.payload && !action.payload.anonymous ? action.payload : null;
        state.user = user;
        state.status = user ? 'signedIn' : 'signedOut';
      })
      .addCase(signOut.fulfilled, (state) => {
        state.user = null;
        state.status = 'signedOut';
      });
  },
});

export const authReducer = authSlice.reducer;
export const { signedIn } = authSlice.actions;
