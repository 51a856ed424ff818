import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { WireUser } from '../../../schema/user';
import { api, ApiRequestError } from '../../app/api';

export interface AuthState {
  status: 'unknown' | 'signedIn' | 'signedOut';
  user: WireUser | null;
}

const initialState: AuthState = { status: 'unknown', user: null };

/** Who is signed in (a 401 means nobody). */
export const loadCurrentUser = createAsyncThunk('auth/loadCurrentUser', async () => {
  try {
    return (await api<WireUser>('/api/user/current')).data;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
});

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

export const signOut = createAsyncThunk('auth/signOut', async () => {
  await api('/api/auth/logout');
});

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<WireUser>) {
      state.user = action.payload;
      state.status = 'signedIn';
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadCurrentUser.fulfilled, (state, action) => {
        state.user = action.payload;
        state.status = action.payload ? 'signedIn' : 'signedOut';
      })
      .addCase(signOut.fulfilled, (state) => {
        state.user = null;
        state.status = 'signedOut';
      });
  },
});

export const authReducer = authSlice.reducer;
export const { signedIn } = authSlice.actions;
