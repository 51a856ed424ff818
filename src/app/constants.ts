/** Where "Help" on the error screens leads (HELP_URL at build time); without one the button is hidden. */
export const HELP_URL: string = typeof __HELP_URL__ === 'string' ? __HELP_URL__ : '';
