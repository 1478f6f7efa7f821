import { expectAccessibleInBothSchemes } from "./support/axe";
import { buyAs, createCompetition, drawNow, serviceClient, signedInClient } from "./support/backend";
import { gotoUntilVisible } from "./support/cached-pages";
import { expect, test } from "./support/fixtures";
import { png } from "./support/images";
import { MyPrizesPage } from "./support/pages/account";
import { Header } from "./support/pages/header";

// Winners with photos: the winner consents on their prize page, an admin publishes a photo
// (shrunk in the browser) with its description and a quote, /winners shows them; the winner withdraws and they
// are gone, and the console shows the withdrawal. Axe on the console's form, light and dark.

test.use({ playerDetails: { name: "Wanda Winner", credit: 10 } });

test("a consenting winner's photo and quote are published, then gone when they withdraw", async ({
  approvedPlayer: { page, ...player },
  admin,
}) => {
  test.slow();
  const competition = await createCompetition({ label: "photo", question: null });
  await buyAs(player, competition.id, 1, null);
  expect((await drawNow(competition)).status).toBe("drawn");

  // The winner consents on their prize page.
  const prizes = new MyPrizesPage(page);
  await prizes.goto();
  await expect(new Header(page).accountMenuButton()).toBeEnabled();
  const consent = page.getByRole("form", { name: `Your photo and quote: ${competition.title}` });
  const box = consent.getByRole("checkbox", { name: "You may publish my photo and quote" });
  await expect(box).not.toBeChecked();
  await box.check();
  await consent.getByRole("button", { name: "Save photo choice" }).click();
  await expect(consent.getByText("Saved: we may publish your photo and quote.")).toBeVisible();

  // The admin sees the consent and publishes a photo with its description and a quote.
  await admin.goto("/admin/competitions/winners");
  const prize = admin.getByRole("article", { name: competition.title });
  await expect(prize.getByTestId("story-consent")).toContainText("Consent given by the winner on their prize page");
  const story = admin.getByRole("form", { name: `Photo and quote: ${competition.title}`, exact: true });
  await story.getByLabel("Photo", { exact: true }).setInputFiles({
    name: "winner.png",
    mimeType: "image/png",
    buffer: png(2000, 1500),
  });
  await expect(story.getByRole("status")).toHaveText("Photo ready: publish to show it.");
  // A photo needs its description: refused beside the field, the chosen photo kept.
  await story.getByRole("button", { name: "Publish" }).click();
  await expect(story.getByLabel("Photo description")).toHaveAccessibleDescription(
    /Describe the photo for people who cannot see it/,
  );
  await story.getByLabel("Photo description").fill("Wanda holding the keys to her new car");
  await story.getByLabel("Quote").fill("I still can't believe it!");
  await story.getByRole("button", { name: "Publish" }).click();
  await expect(story.getByText("Published.")).toBeVisible();
  await expect(prize.getByRole("img", { name: "Wanda holding the keys to her new car" })).toBeVisible();
  await expectAccessibleInBothSchemes(admin);

  // /winners shows it, the photo served from the site's own path.
  const card = page.getByRole("article", { name: competition.title });
  await gotoUntilVisible(page, "/winners", card.getByRole("img", { name: "Wanda holding the keys to her new car" }));
  await expect(card.getByRole("blockquote")).toHaveText("“I still can't believe it!”");
  const src = await card.getByRole("img", { name: "Wanda holding the keys to her new car" }).getAttribute("src");
  expect(src).toMatch(/^\/media\/winner-photos\/[0-9a-f-]{36}\.(webp|jpg)$/);
  const served = await page.request.get(src!);
  expect(served.status()).toBe(200);
  // Kept by no browser or CDN, so nothing outlives a withdrawal.
  expect(served.headers()["cache-control"]).toBe("no-store");
  // Straight from Storage, the photo is no one's: the bucket has no public URL, and even the winner's own
  // session can neither download nor list it; only the site's server reads it.
  const objectName = src!.split("/").pop()!;
  const storageGets = async () => {
    const publicUrl = serviceClient().storage.from("winner-photos").getPublicUrl(objectName).data.publicUrl;
    const byUrl = await fetch(publicUrl);
    const photos = (await signedInClient(player.email, player.password)).storage.from("winner-photos");
    return {
      byUrl: byUrl.status,
      download: (await photos.download(objectName)).error?.name,
      listed: (await photos.list()).data,
    };
  };
  expect(await storageGets()).toEqual({ byUrl: 400, download: "StorageApiError", listed: [] });

  // The winner withdraws: gone from /winners and from its address at once; the console shows the withdrawal.
  await prizes.goto();
  await expect(box).toBeChecked();
  await box.uncheck();
  await consent.getByRole("button", { name: "Save photo choice" }).click();
  await expect(consent.getByText("Saved: your photo and quote will not be published.")).toBeVisible();
  expect((await page.request.get(src!)).status()).toBe(404);
  expect(await storageGets()).toEqual({ byUrl: 400, download: "StorageApiError", listed: [] });
  await expect(async () => {
    await page.goto("/winners");
    await expect(card).toBeVisible({ timeout: 1_000 });
    await expect(card.getByRole("blockquote")).toHaveCount(0, { timeout: 1_000 });
  }).toPass(); // until the next copy of the page (no clock of its own: the test's time bounds it)
  await expect(card.getByRole("img", { name: "Wanda holding the keys to her new car" })).toHaveCount(0);

  await admin.reload();
  await expect(prize.getByTestId("story-consent")).toContainText("Consent withdrawn by the winner");
  await expect(admin.getByRole("form", { name: `Photo and quote: ${competition.title}`, exact: true })).toHaveCount(0);
  await prize.getByRole("button", { name: "Remove photo and quote…" }).click();
  await admin
    .getByRole("alertdialog", { name: `Remove the photo and quote of ${competition.title}?` })
    .getByRole("button", { name: "Remove photo and quote" })
    .click();
  await expect(prize.getByRole("button", { name: "Remove photo and quote…" })).toHaveCount(0);
});
