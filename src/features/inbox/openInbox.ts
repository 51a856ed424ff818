import { createOpenFlag } from '../../ui/openFlag';

/* Whether the inbox panel is open (unpinned): one flag for the whole app, like the trash dialog's. */
const flag = createOpenFlag();

export const openInbox = flag.open;
export const closeInbox = flag.close;
export const toggleInbox = flag.toggle;
export const useInboxOpen = flag.useOpen;
