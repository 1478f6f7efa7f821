/** The error page's text for a fault with no message to show (spec §2), on the page and in a route handler's answer. */
export const UNEXPECTED_ERROR = "An unexpected error occurred";
