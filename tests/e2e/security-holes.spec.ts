import { EMBEDDED_CRON_SECRET } from "../../lib/env";
import {
  buyAs,
  createCompetition,
  createUser,
  makeDue,
  publicCompetition,
  publicDraw,
  sessionCookies,
  signedInClient,
} from "./support/backend";
import { expect, test } from "./support/fixtures";
import { Header } from "./support/pages/header";
import { CompetitionPage } from "./support/pages/competition";
import { wrongAnswerWait } from "../support/wrong-answer-wait";
import { EntryListPage } from "./support/pages/entry-list";
import { ProfilePage } from "./support/pages/account";

// The smaller holes an outside attacker test found, checked against the production build.

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const csvLines = (text: string) => text.trimEnd().split("\n");

test.describe("CSV cells are defused (formulas and ; separators)", () => {
  test("the public entrants CSV quotes a name and a town an attacker chose", async ({ request }) => {
    const competition = await createCompetition({ label: "csv", question: null });
    const attacker = await createUser({ name: "x;=1+1;y Smith", credit: 5, label: "csv" });
    await rpcAs(attacker, "update_my_profile", { p_town: "@SUM(A1)" });
    await buyAs(attacker, competition.id, 1, null);
    // The list is published when online sales end.
    expect((await request.get(`${competition.path}/entries/entrants.csv`)).status()).toBe(409);
    await makeDue(competition.id, "close");
    const csv = await request.get(`${competition.path}/entries/entrants.csv`);
    expect(csv.status()).toBe(200);
    const lines = csvLines(await csv.text());
    expect(lines[0]).toBe("ticket_number,ticket_id,entrant,town,route");
    expect(lines[1]).toMatch(/^1,[0-9a-f-]{36},"x;=1\+1;y S\.","'@SUM\(A1\)",online$/);
  });

  test("the admin activity CSV quotes a name with ; and defuses one starting with =", async ({ admin }) => {
    const tag = `Csv${Date.now().toString(36)}`;
    const semi = await createUser({ name: `x;=1+1;y ${tag}`, label: "csv" });
    const formula = await createUser({ name: `=1+1 ${tag}`, label: "csv" });
    const response = await admin.request.get(`/admin/activity/export?kind=user.approved&subject=${tag}`);
    expect(response.status()).toBe(200);
    const lines = csvLines(await response.text());
    expect(lines).toHaveLength(3);
    expect(lines.find((l) => l.includes(semi.id))).toContain(`,"x;=1+1;y ${tag} (${semi.email})",`);
    expect(lines.find((l) => l.includes(formula.id))).toContain(`,"'=1+1 ${tag} (${formula.email})",`);
  });
});

test.describe("/logout", () => {
  test("a GET only asks: the session lives until the button is pressed", async ({ approvedPlayer: { page } }) => {
    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: "Sign out?" })).toBeVisible();
    const button = page.getByRole("main").getByRole("button", { name: "Sign out" });
    await expect(button).toBeVisible();
    // Still signed in: an <img src="/logout"> on another site signs nobody out.
    await page.goto("/account");
    await expect(page).toHaveURL(/\/account$/);

    await page.goto("/logout");
    await button.click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
  });

  test("another site's form post to it is refused, and the session lives", async ({ approvedPlayer: { page } }) => {
    const response = await page.request.post("/logout", {
      headers: { Origin: "https://evil.example" },
      multipart: { $ACTION_ID_00aabbccddeeff00aabbccddeeff00aabbccddee11: "" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/account$/);
    // One click from the header menu on our own pages.
    const menu = await new Header(page).openAccountMenu("Pat Player");
    await menu.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("what Next answered with 500 is a 4xx", () => {
  test("malformed or NUL-escaped paths get the not-found page (or short text)", async ({ request }) => {
    for (const path of [
      "/competitions/%E0%A4%A",
      "/competitions/a%00b",
      "/competitions/a%00b/entries",
      "/winners/%E0%A4%A",
      "/docs/%E0%A4%A",
      "/blog/%E0%A4%A",
    ]) {
      const page = await request.get(path, { headers: { Accept: "text/html", "User-Agent": BROWSER } });
      expect(page.status(), path).toBe(404);
      expect(await page.text(), path).toContain("Page Not Found");
      const other = await request.get(`${path}/entrants.csv`);
      expect(other.status(), path).toBe(404);
    }
  });

  test("undecodable server-action bodies are 400, unknown actions are not 500", async ({ request }) => {
    const login = await request.get("/login");
    const actionId = /\$ACTION_ID_([0-9a-f]{40,})/.exec(await login.text())?.[1] ?? "7f".padEnd(42, "0");
    const same = { Origin: new URL(login.url()).origin };
    const cases = [
      { headers: { ...same, "Next-Action": actionId, "Content-Type": "text/plain;charset=UTF-8" }, data: "garbage{{" },
      { headers: { ...same, "Next-Action": actionId, "Content-Type": "multipart/form-data; boundary=x" }, data: "x" },
      { headers: { ...same, "Content-Type": "multipart/form-data; boundary=x" }, data: "garbage" },
    ];
    for (const { headers, data } of cases) {
      const response = await request.post("/login", { headers, data, maxRedirects: 0 });
      expect(response.status(), JSON.stringify(headers)).toBe(400);
    }
    const unknown = await request.post("/login", {
      headers: { ...same, "Next-Action": "00aabbccddeeff00aabbccddeeff00aabbccddee11" },
      data: "[]",
      maxRedirects: 0,
    });
    expect(unknown.status()).toBeGreaterThanOrEqual(400);
    expect(unknown.status()).toBeLessThan(500);
  });

  test("a no-JS form post from another site is 403, on cached pages too", async ({ request }) => {
    for (const path of ["/login", "/competitions/anything", "/"]) {
      const response = await request.post(path, {
        headers: { Origin: "https://evil.example" },
        multipart: { $ACTION_ID_00aabbccddeeff00aabbccddeeff00aabbccddee11: "", email: "a@b.example" },
        maxRedirects: 0,
      });
      expect(response.status(), path).toBe(403);
      expect(await response.text()).toBe("Requests from other sites are refused");
    }
  });
});

test.describe("the entry list follows the draw and the names at once", () => {
  test("before the draw, after the cron's draw, and after a winner chooses initials only", async ({ page }) => {
    const competition = await createCompetition({ label: "list-cache", question: null });
    const ada = await createUser({ name: "Ada Lovelace", credit: 5, label: "list-cache" });
    await buyAs(ada, competition.id, 2, null);
    await makeDue(competition.id, "close");
    const list = new EntryListPage(page);
    await list.goto(competition);
    await expect(list.rows).toHaveCount(2);
    await expect(list.row(1)).toContainText("Ada L.");

    // The draw time comes and the cron's route draws it (and expires the cached lists).
    await makeDue(competition.id, "draw");
    const cron = await page.request.get("/api/cron/draws", {
      headers: { Authorization: `Bearer ${EMBEDDED_CRON_SECRET}` },
    });
    expect(cron.ok()).toBe(true);
    expect((await publicCompetition(competition.slug)).status).toBe("drawn");
    await list.goto(competition);
    const draw = await publicDraw((await publicCompetition(competition.slug)).draw!.id);
    await expect(page.getByText("The draw's ticket-list hash, the SHA-256")).toBeVisible();
    await expect(page.getByText(draw.ticket_list_hash)).toBeVisible();
    await expect(page.getByRole("link", { name: "Verify the draw in your browser" })).toBeVisible();
    await expect(list.row(1)).toContainText("Ada L.");

    // The drawn list is cached for an hour; the player's choice expires it at once.
    await page.context().addCookies(await sessionCookies(ada.email, ada.password));
    const profile = new ProfilePage(page);
    await profile.goto();
    await profile.initialsOnly.check();
    await profile.saveInitialsOnly.click();
    await expect(profile.status).toHaveText("Saved: if you win, we will show only your initials.");
    await list.goto(competition);
    await expect(list.row(1)).toContainText("A. L.");
  });
});

test.describe("a wrong skill answer costs a wait", () => {
  test("the form says when to try again, and stays closed after a reload", async ({
    approvedPlayer: { page },
    liveCompetition: competition,
  }) => {
    const competitionPage = new CompetitionPage(page);
    await competitionPage.goto(competition);
    const online = competitionPage.entry;
    await online.buy(1, "Blue");
    await expect(online.refusal).toHaveText(wrongAnswerWait("That answer is not correct."));
    await expect(online.buyButtons).toHaveCount(0);
    await page.reload();
    await expect(online.root.getByText(wrongAnswerWait("You gave a wrong answer."))).toBeVisible();
    await expect(online.buyButtons).toHaveCount(0);
    await expect(competitionPage.ticketsSold).toHaveAttribute("aria-valuenow", "0");
  });
});

async function rpcAs(user: { email: string }, fn: string, args: Record<string, unknown>) {
  const client = await signedInClient(user.email);
  const { error } = await client.rpc(fn as never, args as never);
  if (error) throw new Error(`${fn}: ${error.message}`);
}
