// England and Wales bank holidays are computed by rule (scripts/bank-holidays.ts, the date-holidays library) and
// frozen into public.bank_holidays by a migration; the postal deadline skips them (private.add_working_days).
import { beforeAll, describe, expect, it } from "vitest";
import { englandAndWalesBankHolidays } from "@/scripts/bank-holidays";
import { asUser, dbPerFile } from "./support";

const db = dbPerFile();
let admin: string;

beforeAll(async () => {
  admin = await db().createAdmin();
});

const tableYear = async (year: number) =>
  db().sql<{ day: string; name: string }>(
    "select to_char(day, 'YYYY-MM-DD') as day, name from public.bank_holidays where extract(year from day) = $1 order by day",
    [year],
  );

describe("bank holidays", () => {
  it("holds, for 2029 to 2035, exactly the days and names the library computes", async () => {
    for (let year = 2029; year <= 2035; year++)
      expect(await tableYear(year), String(year)).toEqual(englandAndWalesBankHolidays(year));
  });

  it("is filled at least five years past this one, so a deadline never counts a bank holiday as a working day", async () => {
    // When this fails, write the next years' migration with `npm run db:bank-holidays -- <first> <last>`.
    const [{ last }] = await db().sql<{ last: number }>(
      "select max(extract(year from day))::int as last from public.bank_holidays",
    );
    expect(last).toBeGreaterThanOrEqual(new Date().getUTCFullYear() + 5);
    expect(last).toBeGreaterThanOrEqual(2036);
  });

  it("skips a computed bank holiday of 2029 when it sets a postal deadline", async () => {
    // Thursday 29 March 2029, 20:00 BST: Good Friday (30) and Easter Monday (2 April) are skipped, so the two
    // working days are Tuesday 3 and Wednesday 4 April.
    const competition = await db().call<{ postal_deadline: string }>(asUser(admin), "admin_create_competition", {
      p: {
        title: "Easter 2029 close",
        prize_description: "x",
        prize_value: 1,
        ticket_price: 1,
        total_tickets: 10,
        max_tickets_per_user: 10,
        closes_at: "2029-03-29T19:00:00Z",
      },
    });
    expect(new Date(competition.postal_deadline).toISOString()).toBe("2029-04-04T19:00:00.000Z");
  });
});
