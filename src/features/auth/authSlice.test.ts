import { configureStore } from '@reduxjs/toolkit';
import type { WireUser } from '../../../schema/user';
import { authReducer, loadCurrentUser, signedIn } from './authSlice';

/* The current user (spec §5): an anonymous user is never set as the current one. */

const user = (anonymous: boolean): WireUser => ({
  id: anonymous ? 'anon' : 'u1',
  email: anonymous ? '' : 'anna@example.com',
  name: anonymous ? '' : 'Анна',
  avatar_url: null,
  anonymous,
  telegramId: null,
  createdAt: '',
});

const store = () => configureStore({ reducer: { auth: authReducer } });

test('signed in as a person; an anonymous user given as the updated current one changes nothing', () => {
  const s = store();
  s.dispatch(signedIn(user(false)));
  s.dispatch(signedIn(user(true)));
  expect(s.getState().auth).toMatchObject({ status: 'signedIn', user: { id: 'u1' } });
});

test('an anonymous answer to «who is signed in» is no one', () => {
  const s = store();
  s.dispatch({ type: loadCurrentUser.fulfilled.type, payload: user(true) });
  expect(s.getState().auth).toMatchObject({ status: 'signedOut', user: null });
  s.dispatch({ type: loadCurrentUser.fulfilled.type, payload: user(false) });
  expect(s.getState().auth).toMatchObject({ status: 'signedIn', user: { id: 'u1' } });
});
