import { expect, type Locator, type Page } from "@playwright/test";
import { Header } from "./header";

/**
 * /labspinner: the wheel, the published odds, the free route and, beside the wheel, either the demo
 * (signed out) or the player's own spins and seeds.
 */
export class LabSpinnerPage {
  readonly heading: Locator;
  /** The wheel as assistive technology reads it (its face is decoration). */
  readonly wheel: Locator;
  readonly oddsTable: Locator;
  /** The odds table's body rows, one per segment in position order. */
  readonly segmentRows: Locator;
  /** The notice that the admin has switched the wheel off. */
  readonly switchedOff: Locator;
  readonly freeRoute: Locator;

  // Signed out.
  readonly demo: Locator;
  readonly demoNotice: Locator;
  readonly demoSpinButton: Locator;
  readonly demoResult: Locator;

  // Signed in.
  readonly yourSpins: Locator;
  readonly spinButton: Locator;
  /** Where the result is announced once the wheel rests. */
  readonly result: Locator;
  readonly spinCredits: Locator;
  readonly balance: Locator;
  readonly progress: Locator;
  readonly seeds: Locator;
  readonly serverSeedHash: Locator;
  readonly nextNonce: Locator;
  readonly clientSeed: Locator;
  readonly changeClientSeed: Locator;
  readonly rotateSeed: Locator;
  readonly revealedServerSeed: Locator;
  readonly verifyLink: Locator;
  readonly recentSpins: Locator;

  constructor(private readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "LabSpinner", level: 1 });
    this.wheel = page.getByRole("img", { name: /^The LabSpinner wheel/ });
    this.oddsTable = page.getByRole("region", { name: "The odds" }).getByRole("table");
    this.segmentRows = this.oddsTable.getByRole("row").filter({ has: page.getByRole("cell") });
    this.switchedOff = page.getByText("LabSpinner is switched off for now.", { exact: true });
    this.freeRoute = page.getByRole("region", { name: "Spin for free by post" });

    this.demo = page.getByRole("region", { name: "Try a demo spin" });
    this.demoNotice = this.demo.getByText("Demo spin — you win nothing. Sign in to spin for real.");
    this.demoSpinButton = this.demo.getByRole("button", { name: "Demo spin" });
    this.demoResult = this.demo.getByRole("status");

    this.yourSpins = page.getByRole("region", { name: "Your spins" });
    this.spinButton = this.yourSpins.getByRole("button", { name: "Spin the wheel" });
    this.result = this.yourSpins.getByRole("status");
    this.spinCredits = this.yourSpins.getByTestId("spin-credits");
    this.balance = this.yourSpins.getByTestId("spinner-balance");
    this.progress = this.yourSpins.getByRole("progressbar", { name: "Progress to your next spin credit" });
    this.seeds = page.getByRole("region", { name: "Your seeds" });
    this.serverSeedHash = this.seeds.getByTestId("server-seed-hash");
    this.nextNonce = this.seeds.getByTestId("next-nonce");
    this.clientSeed = this.seeds.getByLabel("Client seed");
    this.changeClientSeed = this.seeds.getByRole("button", { name: "Change client seed" });
    this.rotateSeed = this.seeds.getByRole("button", { name: "Rotate seed" });
    this.revealedServerSeed = this.seeds.getByLabel("Revealed server seed");
    this.verifyLink = this.seeds.getByRole("link", { name: "Verify your spins" });
    this.recentSpins = page.getByRole("region", { name: "Your recent spins" });
  }

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
