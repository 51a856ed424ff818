/** An unread count as a badge shows it: «99+» above 99. */
export const unreadCount = (count: number): string => (count > 99 ? '99+' : String(count));
