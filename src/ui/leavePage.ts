/**
 * The error screens' two ways out of the app as it stands: home in the same window by a full load
 * (a fresh start, whatever state broke), and a reload of the page (after a network error). A module
 * of their own so the screens' tests can see them asked for (jsdom does not navigate).
 */
export const goHomeFresh = (): void => window.location.assign('/');
export const reloadPage = (): void => window.location.reload();
