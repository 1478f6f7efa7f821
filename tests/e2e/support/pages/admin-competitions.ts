import type { Locator, Page } from "@playwright/test";

/** A moment `msFromNow` ahead as a datetime-local value in UK time ("2026-12-01T20:00"), as the form takes it. */
export function ukDateTimeLocal(msFromNow: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/London",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(Date.now() + msFromNow))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

export type CompetitionFormInput = {
  title?: string;
  slug?: string;
  summary?: string;
  prizeDescription?: string;
  prizeValue?: string;
  cashAlternative?: string;
  ticketPrice?: string;
  totalTickets?: string;
  perPerson?: string;
  opensAt?: string;
  closesAt?: string;
  postalDeadline?: string;
  drawAt?: string;
  question?: string;
  answers?: string[];
  /** 1-based: which answer is correct. */
  correct?: number;
};

/** The competition form of /admin/competitions/new and /admin/competitions/{id}/edit. */
export class CompetitionFormPage {
  constructor(readonly page: Page) {}

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  async fill(input: CompetitionFormInput) {
    const pairs: [string, string | undefined][] = [
      ["Title", input.title],
      ["Address (slug)", input.slug],
      ["Summary", input.summary],
      ["Prize description", input.prizeDescription],
      ["Prize value (£)", input.prizeValue],
      ["Cash alternative (£, optional)", input.cashAlternative],
      ["Ticket price (£)", input.ticketPrice],
      ["Total tickets", input.totalTickets],
      ["Tickets per person", input.perPerson],
      ["Opens at", input.opensAt],
      ["Closes at", input.closesAt],
      ["Postal deadline (optional)", input.postalDeadline],
      ["Draw time (optional)", input.drawAt],
      ["Question (optional)", input.question],
    ];
    for (const [label, value] of pairs) if (value !== undefined) await this.field(label).fill(value);
    for (const [i, answer] of (input.answers ?? []).entries()) await this.field(`Answer ${i + 1}`).fill(answer);
    if (input.correct) await this.field(`Answer ${input.correct} is correct`).check();
  }

  /** The images' upload area: its file input (a label, "Choose images"), its previews and messages. */
  get chooseImages(): Locator {
    return this.field("Choose images");
  }

  imagePreview(n: number): Locator {
    return this.page.getByRole("img", { name: new RegExp(`^Image ${n}\\b`) });
  }

  async save(label = "Save draft") {
    await this.page.getByRole("button", { name: label }).click();
  }
}

/** /admin/competitions/{id}: figures, publish, cancel, postal entries. */
export class AdminCompetitionPage {
  readonly postalForm: Locator;

  constructor(readonly page: Page) {
    this.postalForm = page.getByRole("form", { name: "Record a postal entry" });
  }

  async goto(id: string) {
    await this.page.goto(`/admin/competitions/${id}`);
  }

  async recordPostalEntry(entry: { name: string; address: string; email?: string; answer?: string }) {
    await this.postalForm.getByLabel("Entrant's name").fill(entry.name);
    await this.postalForm.getByLabel("Postal address").fill(entry.address);
    if (entry.email !== undefined) await this.postalForm.getByLabel("Account e-mail (optional)").fill(entry.email);
    if (entry.answer !== undefined) await this.postalForm.getByLabel(/^Answer to:/).selectOption(entry.answer);
    await this.postalForm.getByRole("button", { name: "Record postal entry" }).click();
  }
}
