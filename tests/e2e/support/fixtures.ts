import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
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
// Every test fails on a React hydration error in any of its fixtures' pages (`hydrationErrors`, automatic).

/**
 * React's hydration errors as the browser reports them: the production build's minified #418 (text or markup
 * differs), #423 (a recoverable error, hydration given up for client rendering) and #425 (text content differs),
 * and the development build's words.
 */
const HYDRATION_ERROR =
  /Minified React error #(418|423|425)\b|react\.dev\/errors\/(418|423|425)\b|Hydration failed|hydrated but some attributes|Text content does not match server-rendered HTML/;

/** Collects every hydration error of the context's pages, those open now and those it opens later. */
export function watchForHydrationErrors(context: BrowserContext, found: string[]) {
  const watch = (page: Page) => {
    page.on("console", (message) => {
      if (message.type() === "error" && HYDRATION_ERROR.test(message.text()))
        found.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => {
      if (HYDRATION_ERROR.test(error.message)) found.push(`${page.url()}: ${error.message}`);
    });
  };
  context.pages().forEach(watch);
  context.on("page", watch);
}

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
  /** The hydration errors the test's pages met; the test fails after its end when there is one. */
  hydrationErrors: string[];
};

export const test = base.extend<Fixtures>({
  hydrationErrors: [
    async ({ context }, provide) => {
      const found: string[] = [];
      watchForHydrationErrors(context, found);
      await provide(found);
      expect(found, "React hydration errors").toEqual([]);
    },
    { auto: true },
  ],

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

  admin: async ({ browser, hydrationErrors }, provide) => {
    const context = await browser.newContext({ storageState: storageStatePath("admin") });
    watchForHydrationErrors(context, hydrationErrors);
    await provide(await context.newPage());
    await context.close();
  },
});

export { expect };
