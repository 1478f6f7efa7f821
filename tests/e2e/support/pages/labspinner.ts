import { expect, type Locator } from "@playwright/test";
import { Header } from "./header";
import { PageObject } from "./page-object";

/**
 * /labspinner: the wheel, the published odds, the free route and, beside the wheel, either the demo
 * (signed out) or the player's own spins and seeds.
 */
export class LabSpinnerPage extends PageObject {
  readonly heading = this.page.getByRole("heading", { name: "LabSpinner", level: 1 });
  /** The wheel as assistive technology reads it (its face is decoration). */
  readonly wheel = this.page.getByRole("img", { name: /^The LabSpinner wheel/ });
  readonly oddsTable = this.page.getByRole("region", { name: "The odds" }).getByRole("table");
  /** The odds table's body rows, one per segment in position order. */
  readonly segmentRows = this.oddsTable.getByRole("row").filter({ has: this.page.getByRole("cell") });
  /** The notice that the admin has switched the wheel off. */
  readonly switchedOff = this.page.getByText("LabSpinner is switched off for now.", { exact: true });
  readonly freeRoute = this.page.getByRole("region", { name: "Spin for free by post" });

  // Signed out.

  readonly demo = this.page.getByRole("region", { name: "Try a demo spin" });
  readonly demoNotice = this.demo.getByText("Demo spin — you win nothing. Sign in to spin for real.");
  readonly demoSpinButton = this.demo.getByRole("button", { name: "Demo spin" });
  readonly demoResult = this.demo.getByRole("status");

  // Signed in.

  readonly yourSpins = this.page.getByRole("region", { name: "Your spins" });
  readonly spinButton = this.yourSpins.getByRole("button", { name: "Spin the wheel" });
  /** Where the result is announced once the wheel rests. */
  readonly result = this.yourSpins.getByRole("status");
  readonly spinCredits = this.yourSpins.getByTestId("spin-credits");
  readonly balance = this.yourSpins.getByTestId("spinner-balance");
  readonly progress = this.yourSpins.getByRole("progressbar", { name: "Progress to your next spin credit" });
  readonly seeds = this.page.getByRole("region", { name: "Your seeds" });
  readonly serverSeedHash = this.seeds.getByTestId("server-seed-hash");
  readonly nextNonce = this.seeds.getByTestId("next-nonce");
  readonly clientSeed = this.seeds.getByLabel("Client seed");
  readonly changeClientSeed = this.seeds.getByRole("button", { name: "Change client seed" });
  readonly rotateSeed = this.seeds.getByRole("button", { name: "Rotate seed" });
  readonly revealedServerSeed = this.seeds.getByLabel("Revealed server seed");
  readonly verifyLink = this.seeds.getByRole("link", { name: "Verify your spins" });
  readonly recentSpins = this.page.getByRole("region", { name: "Your recent spins" });

  /** Opens the page and waits for hydration (the header's theme button is enabled once it has). */
  async goto() {
    await this.page.goto("/labspinner");
    await expect(new Header(this.page).themeToggle()).toBeEnabled();
  }

  /** The odds table's row for a segment label. */
  oddsRow(label: string): Locator {
    return this.oddsTable.getByRole("row").filter({ has: this.page.getByRole("cell", { name: label, exact: true }) });
  }

  /**
   * Spins and waits for this spin's result (the announcement names its nonce, so an earlier result
   * is never taken for it) and for the panel to show the state after it; answers the prize
   * announced, in pounds (0 for none). The announcement waits for the wheel to rest, so the
   * animation's few seconds are inside the wait.
   */
  async spin(): Promise<number> {
    const nonce = await this.nextNonce.textContent();
    await this.spinButton.click();
    await expect(this.result).toContainText(`(Spin nonce ${nonce}.)`);
    await expect(this.result).toHaveText(/^The wheel stopped on .+\./);
    // The panel has re-read the player's state (balance, credits, nonce) once the nonce moves on.
    await expect(this.nextNonce).toHaveText(String(Number(nonce) + 1));
    const won = (await this.result.textContent())?.match(/You won £([\d,]+\.\d{2}) in credit/);
    return won ? Number(won[1].replace(/,/g, "")) : 0;
  }
}
