import { createAsyncThunk } from '@reduxjs/toolkit';
import type { ApiFailure } from './errors';

/** createAsyncThunk for an API call whose failure keeps its status and code: unwrap() throws the ApiFailure (`toFailure`). */
export const apiThunk = createAsyncThunk.withTypes<{ rejectValue: ApiFailure }>();
