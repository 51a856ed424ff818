import type { RealtimeErrorBody } from '../../../schema/realtime';

/** The spec's reason for every realtime error (api-contract §8: realtime errors map to serverError). */
export const REALTIME_ERROR_REASON = 'serverError';

/** A realtime error as it is reported: the reason, the code (100–112), the channel and the message. */
export function reportRealtimeError(error: RealtimeErrorBody): void {
  console.warn(`realtime: ${REALTIME_ERROR_REASON} (code ${error.code})${error.channel ? ` on ${error.channel}` : ''}: ${error.message}`);
}
