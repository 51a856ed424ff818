import type { ErrorCode } from './errors';

export interface ApiError {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export interface ApiMeta {
  count?: number;
  hasMoreNext?: boolean;
  [key: string]: unknown;
}

/** Every JSON answer of the API has this shape. */
export interface ApiResponse<T> {
  data: T;
  included: unknown[];
  meta: ApiMeta;
  errors: ApiError[];
}
