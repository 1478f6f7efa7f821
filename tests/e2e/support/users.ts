// The demo logins from supabase/seed.sql (listed in the README).
export const DEMO_PASSWORD = "LabCash-demo-1";

export const demoUsers = {
  superAdmin: { email: "superadmin@labcash.test", name: "Sam Super" },
  admin: { email: "admin@labcash.test", name: "Alex Admin" },
  player: { email: "player@labcash.test", name: "Priya Player" },
  pending: { email: "pending@labcash.test", name: "Pat Pending" },
} as const;

export type DemoUser = keyof typeof demoUsers;

/** Saved signed-in browser state per demo user, written by auth.setup.ts. */
export const storageStatePath = (user: DemoUser) => `test-results/.auth/${user}.json`;

/** The demo admins set up two-step verification in auth.setup.ts; their authenticator key is kept here. */
export const twoStepKeyPath = (user: DemoUser) => `test-results/.auth/${user}.totp`;

/** A unique e-mail for a test that signs up a new account. */
export const uniqueEmail = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.floor(performance.now() * 1000).toString(36)}@labcash.test`;
