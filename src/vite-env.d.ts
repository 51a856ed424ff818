/// <reference types="vite/client" />

/** Replaced at build time by vite.config.ts (`define`). */
declare const __HELP_URL__: string | undefined;
