import { AppError } from '../../server/errors';

/** The status and stable code a server call failed with (it must fail, with an AppError). */
export async function refusal(work: Promise<unknown>): Promise<[number, string]> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return [error.statusCode, error.code];
}
