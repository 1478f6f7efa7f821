import { test as base, expect, type Page } from "@playwright/test";
import {
  createCompetition,
  createUser,
  sessionCookies,
  type CompetitionFields,
  type TestCompetition,
  type TestUser,
} from "./backend";
import { storageStatePath } from "./users";

// Fixtures for what many specs need: their own player, their own live competition, the admin.
// Each is made fresh for the test through the real backend, so tests stay independent while
// the workers share one database. Change what they are made with by `test.use`:
//   test.use({ competitionFields: { ticketPrice: 2.5 }, playerDetails: { name: "Penny Less", credit: 3 } });
// Playwright's fixture callback is called `provide` here, not `use`, which the React lint takes for a hook.

export type PlayerDetails = { name: string; credit: number };
/** A player's credentials and the test's page, signed in as them. */
export type SignedInPlayer = TestUser & { page: Page };

type Fixtures = {
  /** What `liveCompetition` is made with (createCompetition's defaults where left out). */
  competitionFields: CompetitionFields;
  /** A competition published through the admin RPCs for this test. */
  liveCompetition: TestCompetition;
  /** Who `approvedAccount` is and the credit, in pounds, it starts with. */
  playerDetails: PlayerDetails;
  /** A new approved account with credit; nobody is signed in as it. */
  approvedAccount: TestUser;
  /**
   * `approvedAccount`, signed in on the test's `page` through the API (its session cookies set, as the
   * sign-in form would set them); the page is still blank, so the test opens what it needs.
   */
  approvedPlayer: SignedInPlayer;
  /** A second page, in its own browser context, signed in as the demo admin (the setup project's state). */
  admin: Page;
};

export const test = base.extend<Fixtures>({
  competitionFields: [{}, { option: true }],
  liveCompetition: async ({ competitionFields }, provide) => {
    await provide(await createCompetition(competitionFields));
  },

  playerDetails: [{ name: "Pat Player", credit: 10 }, { option: true }],
  approvedAccount: async ({ playerDetails }, provide) => {
    await provide(await createUser({ ...playerDetails, label: "player" }));
  },
  approvedPlayer: async ({ approvedAccount, page }, provide) => {
    await page.context().addCookies(await sessionCookies(approvedAccount.email, approvedAccount.password));
    await provide({ ...approvedAccount, page });
  },

  admin: async ({ browser }, provide) => {
    const context = await browser.newContext({ storageState: storageStatePath("admin") });
    await provide(await context.newPage());
    await context.close();
  },
});

export { expect };
