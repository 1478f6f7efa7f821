import { expectAccessibleInBothSchemes } from "./support/axe";
import { recordSpinRequest } from "./support/backend";
import { expect, test } from "./support/fixtures";
import { LabSpinnerPage } from "./support/pages/labspinner";

// The wheel after a spin: the result is announced first, above what replaces the Spin
// button, and "Reveal and check this spin" reveals that spin's server seed (rotating the pair) and shows
// the check passing in this browser, with nothing else to do. The live wheel is shared: never changed here.

test("after a spin the result comes first, and Reveal and check this spin shows the check passing", async ({
  approvedPlayer: { page, ...player },
}) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await recordSpinRequest(player.id);
  const spinner = new LabSpinnerPage(page);
  await spinner.goto();
  const hashBefore = await spinner.serverSeedHash.textContent();

  await spinner.spin();
  // The last credit is spent: the result sits above the note that replaced the button, in a polite live region.
  const noCredits = spinner.yourSpins.getByText("You have no spin credits yet.");
  await expect(noCredits).toBeVisible();
  await expect(spinner.result).toHaveAttribute("aria-live", "polite");
  const resultFirst = await spinner.result.evaluate(
    (result, note) => Boolean(note && result.compareDocumentPosition(note) & Node.DOCUMENT_POSITION_FOLLOWING),
    await noCredits.elementHandle(),
  );
  expect(resultFirst).toBe(true);

  await spinner.yourSpins.getByRole("button", { name: "Reveal and check this spin" }).click();
  const check = spinner.yourSpins.getByRole("region", { name: "Spin check" });
  await expect(check.getByText("This spin checks out")).toBeVisible();
  await expect(check).toContainText(/gives segment \d+, .+: what the wheel showed\./);
  await expect(check.getByTestId("revealed-spin-seed")).toHaveText(/^[0-9a-f]{64}$/);
  await expect(check).toContainText(hashBefore ?? "missing");
  // One click was enough: the pair was rotated, so the next spin uses a new server seed from nonce 0.
  await expect(check).toContainText("Your seed pair has been rotated");
  await expect(spinner.nextNonce).toHaveText("0");
  await expect(spinner.serverSeedHash).not.toHaveText(hashBefore ?? "");
  await expect(spinner.yourSpins.getByRole("button", { name: "Reveal and check this spin" })).toHaveCount(0);
});

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`/labspinner after a spin and its check has no axe violations in light and dark mode on a ${viewport.name}`, async ({
    approvedPlayer: { page, ...player },
  }) => {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await recordSpinRequest(player.id);
    const spinner = new LabSpinnerPage(page);
    await spinner.goto();
    await spinner.spin();
    await spinner.yourSpins.getByRole("button", { name: "Reveal and check this spin" }).click();
    await expect(spinner.yourSpins.getByText("This spin checks out")).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });
}
