import { configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { authReducer } from '../features/auth/authSlice';
import { commentsReducer } from '../features/comments/commentsSlice';
import { inboxReducer } from '../features/inbox/inboxSlice';
import { pagesReducer } from '../features/pages/pagesSlice';
import { presenceReducer } from '../features/presence/presenceSlice';
import { uiSettingsReducer } from '../features/settings/uiSettings';
import { workspacesReducer } from '../features/workspaces/workspacesSlice';
import { serverApi } from './serverApi';

/** The store holds serializable data only (server data shared by screens: `serverApi`); the live Slate value and sockets stay outside it. */
export function createStore() {
  return configureStore({
    reducer: {
      auth: authReducer,
      workspaces: workspacesReducer,
      pages: pagesReducer,
      comments: commentsReducer,
      inbox: inboxReducer,
      presence: presenceReducer,
      uiSettings: uiSettingsReducer,
      [serverApi.reducerPath]: serverApi.reducer,
    },
    middleware: (getDefault) => getDefault().concat(serverApi.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();
