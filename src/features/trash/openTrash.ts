import { createOpenFlag } from '../../ui/openFlag';

/* Whether the trash dialog is open: one flag for the whole app, so any screen can open it. */
const flag = createOpenFlag();

/** Opens the trash dialog (the sidebar, the page menu, anything). */
export const openTrash = flag.open;
export const closeTrash = flag.close;
export const useTrashOpen = flag.useOpen;
