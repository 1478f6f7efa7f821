// The dashboard sidebar's collapsed state, shared by the server shell (reads it, so the page is
// rendered as the visitor left it) and the client sidebar (writes it). Not a secret and not
// personal data: a display preference, kept for a year.
export const SIDEBAR_COOKIE = "labcash_sidebar";
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

/** True when the cookie's value asks for the collapsed sidebar; anything else (or nothing) is expanded. */
export const sidebarCollapsed = (value: string | undefined) => value === "collapsed";
