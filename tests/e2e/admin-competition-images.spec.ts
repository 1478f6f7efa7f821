import type { Page } from "@playwright/test";
import { axeViolations } from "./support/axe";
import { png } from "./support/images";
import { expect, test } from "./support/fixtures";
import { CompetitionFormPage, ukDateTimeLocal } from "./support/pages/admin-competitions";
import { storageStatePath } from "./support/users";

// Competition images: an admin picks a picture on the competition form, the browser
// shrinks it and uploads it to the Storage bucket, the form shows it, and the public page serves it from
// the site's own /media path; a replaced image is deleted from the bucket when the edit is saved. Axe on
// the form with a picture in it, light and dark, phone and desktop.

test.use({ storageState: storageStatePath("admin") });

const DAY = 86_400_000;

const photo = (name: string, width = 2400, height = 1200) => ({
  name,
  mimeType: "image/png",
  buffer: png(width, height),
});

const naturalSize = (page: Page, name: RegExp) =>
  page
    .getByRole("img", { name })
    .first()
    .evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight, src: img.getAttribute("src") };
    });

let counter = 0;
const unique = (label: string) =>
  `${label}-${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;

test("an admin uploads a picture on the new-competition form; it is shrunk, saved and shown on the public page", async ({
  page,
}) => {
  // A whole competition's life through the form (save, publish, edit): longer than most tests.
  test.slow();
  const slug = unique("e2e-images");
  const title = `Pictured ${slug}`;
  await page.goto("/admin/competitions/new");
  const form = new CompetitionFormPage(page);
  await form.fill({
    title,
    slug,
    prizeDescription: "A pictured prize",
    prizeValue: "300",
    ticketPrice: "1.00",
    totalTickets: "100",
    perPerson: "10",
    closesAt: ukDateTimeLocal(7 * DAY),
  });

  // A file that is not a picture is refused in the browser, with its name, before anything is sent.
  await form.chooseImages.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(form.chooseImages).toHaveAccessibleDescription(/“notes\.txt” is not a JPEG, PNG or WebP image\./);
  await expect(form.imagePreview(1)).toHaveCount(0);

  await form.chooseImages.setInputFiles(photo("prize.png"));
  await expect(page.getByRole("status").filter({ hasText: "1 image added." })).toBeVisible();
  await expect(form.chooseImages).not.toHaveAttribute("aria-invalid");
  // Shrunk in the browser to 1600 pixels on its longest side, proportions kept, and stored as WebP.
  const uploaded = await naturalSize(page, /^Image 1/);
  expect(uploaded).toMatchObject({ width: 1600, height: 800 });
  expect(uploaded.src).toMatch(/^\/media\/competition-images\/[0-9a-f-]{36}\.webp$/);
  const stored = await page.request.get(uploaded.src!);
  expect(stored.status()).toBe(200);
  expect(stored.headers()["content-type"]).toBe("image/webp");
  expect(stored.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

  await form.save();
  await expect(page).toHaveURL(/\/admin\/competitions\/[0-9a-f-]{36}(\?saved=created)?$/);
  const id = page.url().match(/competitions\/([0-9a-f-]{36})/)![1];
  await page.getByRole("button", { name: "Publish…" }).click();
  await page
    .getByRole("dialog", { name: `Publish ${title}?` })
    .getByRole("button", { name: "Publish for good" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: `Published: ${title} is live.` })).toBeVisible();

  // The public page shows it, from the site's own path.
  await page.goto(`/competitions/${slug}`);
  expect(await naturalSize(page, new RegExp(`^${title}$`))).toEqual({ width: 1600, height: 800, src: uploaded.src });

  // Replacing it on the edit form: the old picture is deleted from the bucket once the edit is saved.
  await page.goto(`/admin/competitions/${id}/edit`);
  await expect(form.imagePreview(1)).toHaveAttribute("src", uploaded.src!);
  await page.getByRole("button", { name: "Remove image 1" }).click();
  await expect(form.imagePreview(1)).toHaveCount(0);
  await form.chooseImages.setInputFiles(photo("portrait.png", 900, 1800));
  await expect(page.getByRole("status").filter({ hasText: "1 image added." })).toBeVisible();
  const replacement = await naturalSize(page, /^Image 1/);
  expect(replacement).toMatchObject({ width: 800, height: 1600 });
  expect((await page.request.get(uploaded.src!)).status()).toBe(200);
  await form.save("Save changes");
  await expect(page.getByRole("status").filter({ hasText: "Changes saved." })).toBeVisible();
  expect((await page.request.get(uploaded.src!)).status()).toBe(404);
  await page.goto(`/competitions/${slug}`);
  await expect(page.getByRole("img", { name: title }).first()).toHaveAttribute("src", replacement.src!);
});

test("the form with an uploaded picture has no axe violations in light and dark, on a phone and a desktop", async ({
  page,
}) => {
  // Four full-page scans of the longest admin form: longer than most tests.
  test.slow();
  await page.goto("/admin/competitions/new");
  const form = new CompetitionFormPage(page);
  await form.chooseImages.setInputFiles(photo("prize.png", 1200, 900));
  await expect(form.imagePreview(1)).toBeVisible();
  await page.mouse.move(0, 0);
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ]) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: "reduce" });
      await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
      expect(await axeViolations(page), `${colorScheme} at ${viewport.width}px`).toEqual([]);
    }
  }
  // Removing a picture uploaded on this visit deletes it at once: nothing refers to it.
  const src = (await form.imagePreview(1).getAttribute("src"))!;
  await page.getByRole("button", { name: "Remove image 1" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Image 1 removed." })).toBeVisible();
  await expect.poll(async () => (await page.request.get(src)).status()).toBe(404);
});
