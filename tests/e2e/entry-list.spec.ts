import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expectAccessibleInBothSchemes } from "./support/axe";
import {
  buyAs,
  createCompetition,
  createUser,
  drawNow,
  publicDraw,
  recordPostalEntry,
  type PublicDraw,
  type TestCompetition,
} from "./support/backend";
import { expect, test } from "./support/fixtures";
import { EntryListPage } from "./support/pages/entry-list";

// The public entry list after a draw (labcash-draw-v2): the page, its search and pages, the two CSVs, and
// the verification page checking the draw in the browser against the ticket-list CSV.

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** Parses a CSV with no quoted commas (the ticket list, or the entrants file of this test's names). */
const csvRows = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .slice(1)
    .map((line) => line.split(","));

test.describe("a drawn competition with online and postal tickets", () => {
  // Each worker makes its own: 55 online tickets (#1–#55 of 100) and two postal ones (#101, #102, stamp
  // parity at £0.50), closed, postal deadline and draw all 10 s after creation, then drawn by the cron's function.
  let competition: TestCompetition;
  let draw: PublicDraw;

  test.beforeAll(async () => {
    competition = await createCompetition({
      label: "entry-list",
      ticketPrice: 0.5,
      totalTickets: 100,
      maxPerUser: 40,
      question: null,
    });
    const [ada, grace] = await Promise.all([
      createUser({ name: "Ada Lovelace", credit: 20, label: "ada" }),
      createUser({ name: "Grace Hopper", credit: 20, label: "grace" }),
    ]);
    await buyAs(ada, competition.id, 30, null);
    await buyAs(grace, competition.id, 25, null);
    const postal = await recordPostalEntry(competition.id, {
      name: "Peter Post",
      address: "1 High Street, Leeds LS1 4AP",
      answer: null,
    });
    expect(postal.ticket_numbers).toEqual([101, 102]);
    const drawn = await drawNow(competition);
    expect(drawn.status).toBe("drawn");
    draw = await publicDraw(drawn.draw!.id);
    expect(draw.algorithm).toBe("labcash-draw-v2");
  });

  test("lists every ticket with its entrant and route, pages by keyset and finds a ticket by number", async ({
    page,
  }) => {
    const list = new EntryListPage(page);
    await list.goto(competition);
    await expect(list.heading(competition)).toBeVisible();
    await expect(page.getByText("57 tickets: 55 online and 2 by post.")).toBeVisible();
    await expect(page.getByText("This list is final: the draw has been made.")).toBeVisible();
    await expect(page.getByText(draw.ticket_list_hash)).toBeVisible();

    await expect(page.getByText("Tickets #1 to #50, 50 tickets of 57.")).toBeVisible();
    await expect(list.rows).toHaveCount(50);
    await expect(list.row(1)).toContainText("Ada L.");
    await expect(list.row(1)).toContainText("Online");
    await expect(list.row(31)).toContainText("Grace H.");
    await expect(list.previous).toHaveCount(0);

    await list.next.click();
    await expect(page).toHaveURL(/\?after=50$/);
    await expect(list.rows).toHaveCount(7);
    await expect(list.row(55)).toContainText("Grace H.");
    for (const n of [101, 102]) {
      await expect(list.row(n).getByRole("cell")).toHaveText([
        `#${n}`,
        "Postal entry",
        "Not given",
        "Postal entry",
        /./,
      ]);
    }
    await expect(list.next).toHaveCount(0);
    await list.previous.click();
    await expect(page).toHaveURL(/\?before=51$/);
    await expect(list.rows).toHaveCount(50);
    await expect(list.row(50)).toBeVisible();

    await list.findTicket("#42");
    await expect(page).toHaveURL(/\?ticket=%2342$/);
    await expect(list.rows).toHaveCount(1);
    await expect(list.row(42)).toContainText("Grace H.");
    await expect(page.getByRole("status").filter({ hasText: "Ticket #42 found." })).toBeVisible();
    await page.getByRole("link", { name: "Show every ticket" }).click();
    await expect(list.rows).toHaveCount(50);

    await list.findTicket("77");
    await expect(page.getByText("There is no ticket #77 in this competition.")).toBeVisible();
    await expect(list.table).toHaveCount(0);

    // Not a number: said at the field, and the list is shown from the start.
    await list.findTicket("forty-two");
    await expect(list.search).toHaveAccessibleDescription(/Enter a ticket number: a whole number from 1, such as 42\./);
    await expect(list.search).toHaveValue("forty-two");
    await expect(list.rows).toHaveCount(50);
  });

  test("the ticket-list CSV is the bytes the draw hashed, and the entrants CSV joins it by ticket id", async ({
    page,
    request,
  }) => {
    const list = new EntryListPage(page);
    await list.goto(competition);
    const [download] = await Promise.all([page.waitForEvent("download"), list.ticketListDownload.click()]);
    expect(download.suggestedFilename()).toBe(`labcash-${competition.slug}-ticket-list.csv`);
    const ticketList = await readFile((await download.path())!);
    expect(sha256(ticketList)).toBe(draw.ticket_list_hash);

    const response = await request.get(`/competitions/${competition.slug}/entries/ticket-list.csv`);
    expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers()["etag"]).toBe(`"${draw.ticket_list_hash}"`);
    expect(sha256(await response.body())).toBe(draw.ticket_list_hash);

    const tickets = csvRows(ticketList.toString("utf8"));
    expect(ticketList.toString("utf8").startsWith("ticket_number,ticket_id\n")).toBe(true);
    expect(tickets.map(([n]) => Number(n))).toEqual([...Array.from({ length: 55 }, (_, i) => i + 1), 101, 102]);
    const position = draw.winning_position!;
    expect(tickets[position - 1]).toEqual([String(draw.winning_number), draw.winning_ticket_id]);

    const entrantsResponse = await request.get(`/competitions/${competition.slug}/entries/entrants.csv`);
    expect(entrantsResponse.ok()).toBe(true);
    expect(entrantsResponse.headers()["content-disposition"]).toBe(
      `attachment; filename="labcash-${competition.slug}-entrants.csv"`,
    );
    const entrantsText = await entrantsResponse.text();
    expect(entrantsText.split("\n")[0]).toBe("ticket_number,ticket_id,entrant,town,route");
    const byId = new Map(csvRows(entrantsText).map((row) => [row[1], row]));
    expect(byId.size).toBe(tickets.length);
    for (const [number, id] of tickets) {
      const entrant = byId.get(id);
      expect(entrant?.[0], `ticket ${number}`).toBe(number);
      const expected =
        Number(number) > 100 ? "Postal entry,,postal" : Number(number) <= 30 ? "Ada L.,,online" : "Grace H.,,online";
      expect(entrant!.slice(2).join(","), `ticket ${number}`).toBe(expected);
    }
  });

  test("the verification page checks the draw in the browser against the ticket-list CSV", async ({ page }) => {
    await page.goto(`/winners/${draw.id}`);
    await expect(page.getByText("This draw checks out")).toBeVisible();
    const checks = page.getByRole("list", { name: "Checks" }).getByRole("listitem");
    await expect(checks.filter({ hasText: "fails" })).toHaveCount(0);
    for (const name of [
      "Seed matches the commitment published before sales",
      "Ticket list is well formed",
      "Number of tickets",
      "Ticket list hash",
      "Winning position in the list",
      "Winning ticket number",
      "Winning ticket",
    ]) {
      await expect(checks.filter({ hasText: `${name}: passes` })).toHaveCount(1);
    }
    await expect(page.getByText(`Checked 57 tickets`)).toBeVisible();

    const entries = `/competitions/${competition.slug}/entries`;
    await expect(page.getByRole("link", { name: "Ticket list (CSV)" })).toHaveAttribute(
      "href",
      `${entries}/ticket-list.csv`,
    );
    await expect(page.getByRole("link", { name: "Entrants (CSV)" })).toHaveAttribute("href", `${entries}/entrants.csv`);
    // The list is downloaded, not part of the page: a ticket that did not win is nowhere in the HTML.
    const loser = (await publicDraw(draw.id)).winning_number === 1 ? 2 : 1;
    const html = await (await page.request.get(`/winners/${draw.id}`)).text();
    const ticketList = await (await page.request.get(`${entries}/ticket-list.csv`)).text();
    const loserId = csvRows(ticketList).find(([n]) => Number(n) === loser)![1];
    expect(html).not.toContain(loserId);

    await page.getByRole("link", { name: "The entry list, searchable by ticket number" }).click();
    await expect(new EntryListPage(page).heading(competition)).toBeVisible();
  });

  test("the entry list and the verification page have no axe violations in light and dark mode", async ({ page }) => {
    const list = new EntryListPage(page);
    await list.goto(competition, "?ticket=x");
    await expect(list.rows).toHaveCount(50);
    await expectAccessibleInBothSchemes(page, "entry list");

    await page.goto(`/winners/${draw.id}`);
    await expect(page.getByText("This draw checks out")).toBeVisible();
    await expectAccessibleInBothSchemes(page, "verification page");
  });
});

test("before online sales end the list says when it opens, and an unknown competition is not found", async ({
  page,
  request,
  liveCompetition: competition,
}) => {
  await page.goto(`/competitions/${competition.slug}/entries`);
  await expect(page.getByRole("heading", { level: 1, name: `Entry list: ${competition.title}` })).toBeVisible();
  await expect(page.getByText("The entry list is not published yet.")).toBeVisible();
  await expect(page.getByText(/It opens when online sales end: at \d{1,2} \w+ \d{4}, \d{2}:\d{2}/)).toBeVisible();
  expect((await request.get(`/competitions/${competition.slug}/entries/ticket-list.csv`)).status()).toBe(409);

  const missing = await page.goto("/competitions/no-such-competition-here/entries");
  expect(missing?.status()).toBe(404);
  expect((await request.get("/competitions/no-such-competition-here/entries/entrants.csv")).status()).toBe(404);
});
