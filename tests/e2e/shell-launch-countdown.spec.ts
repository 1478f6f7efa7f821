import { expect, test } from "./support/fixtures";
import { launchAt, setLaunchAt } from "./support/backend";

// The home page's launch countdown reads the launch_at setting. Other tests share the database,
// so this one puts the setting back as it found it.
test.describe.configure({ mode: "serial" });

test("counts down to the launch_at setting and disappears once it has passed or is removed", async ({ page }) => {
  const before = await launchAt();
  try {
    // Two days, three hours and a bit from now.
    const launch = new Date(Date.now() + (2 * 86_400 + 3 * 3600 + 600) * 1000);
    await setLaunchAt(launch.toISOString());
    await page.goto("/");
    const countdown = page.getByRole("region", { name: "The first competitions launch soon" });
    await expect(countdown).toBeVisible();
    await expect(countdown.locator("time")).toHaveAttribute("datetime", `${launch.toISOString().slice(0, 19)}Z`);
    const value = (label: string) =>
      countdown.getByRole("definition").nth(["days", "hours", "minutes", "seconds"].indexOf(label));
    await expect(value("days")).toHaveText("02");
    await expect(value("hours")).toHaveText("03");
    // It ticks: the seconds change without a reload.
    const seconds = await value("seconds").textContent();
    await expect(value("seconds")).not.toHaveText(seconds ?? "");

    await setLaunchAt(new Date(Date.now() - 60_000).toISOString());
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(countdown).toHaveCount(0);

    await setLaunchAt(null);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(countdown).toHaveCount(0);
  } finally {
    await setLaunchAt(before);
  }
});
