// Fixed development settings of the embedded backend, like the Supabase CLI's
// local stack. Public by design: they only ever open a database on loopback.
export const EMBEDDED_HOST = "127.0.0.1";
export const EMBEDDED_PORT = 54321;
export const EMBEDDED_URL = `http://${EMBEDDED_HOST}:${EMBEDDED_PORT}`;
export const EMBEDDED_PUBLISHABLE_KEY = "sb_publishable_LabCashLocalDevelopment0000";
export const EMBEDDED_SECRET_KEY = "sb_secret_LabCashLocalDevelopmentOnly000000";
