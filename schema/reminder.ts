/** A reminder still to go off (`GET reminders`, docs/api/blocks.md «Date mentions and reminders»). */
export interface WireReminder {
  id: string;
  pageId: string;
  blockId: string;
  /** The instant it goes off (ISO, UTC). */
  remindAt: string;
  /** The mention's day and time on its writer's clock. */
  start: string;
  /** The mention's text. */
  label: string;
}
