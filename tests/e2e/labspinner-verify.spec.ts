import { expectAccessibleInBothSchemes } from "./support/axe";
import { recordSpinRequest } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { LabSpinnerPage } from "./support/pages/labspinner";
import { LabSpinnerVerifyPage } from "./support/pages/labspinner-verify";

// /labspinner/verify: a player spins, rotates the seed pair and sees every spin of the
// revealed pair recomputed in the browser and verified; spins of the active pair wait for a rotation;
// the by-hand form gives the recorded segment for the revealed seed.

test("signed out: a sign-in prompt that comes back here", async ({ page }) => {
  const verify = new LabSpinnerVerifyPage(page);
  await verify.goto();
  await expect(verify.heading).toBeVisible();
  await expect(verify.signInLink).toHaveAttribute("href", "/login?next=/labspinner/verify");
  await expect(verify.spins).toHaveCount(0);
});

test("the LabSpinner guide spells out the derivation this page recomputes and links to it", async ({ page }) => {
  await page.goto("/docs/labspinner");
  const main = page.getByRole("main");
  await expect(main).toContainText("labcash-spin-v1");
  await expect(main).toContainText("HMAC-SHA256 with the server seed's 32 bytes as the key");
  // The page's own link (the "On this page" list links to the section of the same name).
  await expect(
    main.getByRole("link", { name: "Verify your spins", exact: true }).and(page.locator('[href="/labspinner/verify"]')),
  ).toHaveCount(1);
  await expect(main.getByRole("heading", { name: "Spin for free by post" })).toBeVisible();
});

test("a player spins, rotates the seed and sees every spin verified in the browser", async ({
  approvedPlayer: { page, ...player },
}) => {
  // Reduced motion: the result shows at once, the animation is not what this test is about.
  await page.emulateMedia({ reducedMotion: "reduce" });
  await recordSpinRequest(player.id, "E2E verify 1");
  await recordSpinRequest(player.id, "E2E verify 2");
  const spinner = new LabSpinnerPage(page);
  await spinner.goto();
  await spinner.spin();
  await expect(spinner.nextNonce).toHaveText("1");
  await spinner.spin();
  await expect(spinner.nextNonce).toHaveText("2");
  const hashBefore = await spinner.serverSeedHash.textContent();

  // Before the rotation the server seed is secret: nothing can be checked yet.
  const verify = new LabSpinnerVerifyPage(page);
  await verify.goto();
  await expect(verify.summary).toHaveText("No spins to verify yet. 2 spins wait for you to rotate your seed.");
  await expect(verify.spinRows()).toHaveCount(2);
  for (const row of await verify.spinRows().all()) {
    await expect(await verify.cell(row, "Verdict")).toHaveText("Rotate your seed to verify");
  }

  await spinner.goto();
  await spinner.rotateSeed.click();
  await expect(spinner.revealedServerSeed).toHaveText(/^[0-9a-f]{64}$/);
  const revealed = (await spinner.revealedServerSeed.textContent())!;
  await spinner.verifyLink.click();
  await expect(page).toHaveURL(/\/labspinner\/verify$/);

  await expect(verify.summary).toHaveText("2 of 2 spins verified");
  const rows = await verify.spinRows().all();
  expect(rows).toHaveLength(2);
  for (const row of rows) {
    await expect(await verify.cell(row, "Verdict")).toHaveText("Verified");
    await expect(await verify.cell(row, "Server seed hash")).toHaveText(`${hashBefore!.slice(0, 12)}…`);
    const recorded = await (await verify.cell(row, "Recorded segment")).textContent();
    await expect(await verify.cell(row, "Recomputed segment")).toHaveText(recorded!);
  }

  // By hand: the revealed seed, the client seed and nonce of the first spin (the last row) give its segment.
  const first = rows[1];
  const clientSeed = (await (await verify.cell(first, "Client seed")).textContent())!;
  await expect(await verify.cell(first, "Nonce")).toHaveText("0");
  const recorded = (await (await verify.cell(first, "Recorded segment")).textContent())!;
  const [, label, position] = recorded.match(/^(.+) \(segment (\d+)\)$/)!;
  await verify.checkByHand({ serverSeed: revealed, clientSeed, nonce: 0 });
  await expect(verify.byHandResult).toContainText(`Segment ${position}: ${label}`);
  await expect(verify.byHandResult).toContainText(hashBefore!);

  // The form says what is wrong with a malformed seed instead of computing.
  await verify.checkByHand({ serverSeed: "not a seed", clientSeed, nonce: 0 });
  await expect(verify.serverSeed).toHaveAccessibleDescription("Paste the 64 hex digits of a revealed server seed.");
  await expect(verify.byHandResult).toBeEmpty();
});

test("/labspinner/verify has no axe violations in light and dark mode, signed out and with verified spins", async ({
  approvedPlayer: { page, ...player },
  browser,
}) => {
  const signedOut = await browser.newContext();
  try {
    const anonymous = await signedOut.newPage();
    await anonymous.emulateMedia({ colorScheme: "light" });
    const verifyAnon = new LabSpinnerVerifyPage(anonymous);
    await verifyAnon.goto();
    await expect(verifyAnon.signInLink).toBeVisible();
    await expectAccessibleInBothSchemes(anonymous, "/labspinner/verify signed out");
  } finally {
    await signedOut.close();
  }

  await page.emulateMedia({ colorScheme: "light", reducedMotion: "reduce" });
  await recordSpinRequest(player.id, "E2E verify axe");
  const spinner = new LabSpinnerPage(page);
  await spinner.goto();
  await spinner.spin();
  await spinner.rotateSeed.click();
  await expect(spinner.revealedServerSeed).toHaveText(/^[0-9a-f]{64}$/);
  const revealed = (await spinner.revealedServerSeed.textContent())!;
  const verify = new LabSpinnerVerifyPage(page);
  await verify.goto();
  await expect(verify.summary).toHaveText("1 of 1 spin verified");
  await verify.checkByHand({ serverSeed: revealed, clientSeed: "any-client-seed", nonce: 3 });
  await expect(verify.byHandResult).toContainText(/^Segment \d+: /);
  await expectAccessibleInBothSchemes(page, "/labspinner/verify with verified spins");
});
