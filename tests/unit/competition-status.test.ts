import { describe, expect, it } from "vitest";
import { entryBlock, phaseOf } from "@/lib/competitions/status";
import type { Competition } from "@/lib/data/competitions";

const now = Date.parse("2026-11-23T12:00:00Z");
const hour = 3_600_000;

const live: Competition = {
  id: "00000000-0000-4000-8000-000000000001",
  slug: "bike",
  title: "A bike",
  summary: "",
  description: "",
  prize_description: "A bike",
  prize_value: 500,
  images: [],
  ticket_price: 1,
  total_tickets: 100,
  tickets_sold: 10,
  tickets_left: 90,
  max_tickets_per_user: 10,
  opens_at: new Date(now - hour).toISOString(),
  closes_at: new Date(now + hour).toISOString(),
  status: "live",
  is_open: true,
  skill_question: null,
  skill_options: null,
  seed_commitment: null,
  external_randomness: null,
  published_at: null,
  closed_at: null,
  cancelled_at: null,
  cancel_reason: null,
  draw: null,
};
const competition = (changes: Partial<Competition>): Competition => ({ ...live, ...changes });

describe("entryBlock", () => {
  it("is null while entries are open", () => {
    expect(entryBlock(live, now)).toBeNull();
  });

  it("gives the database's code and message for each reason entries are shut", () => {
    const cases: [Partial<Competition>, string, string | RegExp][] = [
      [{ status: "cancelled" }, "competition_cancelled", "This competition has been cancelled"],
      [{ status: "sold_out" }, "competition_sold_out", "This competition has sold out"],
      [{ status: "drawn", tickets_sold: 100 }, "competition_sold_out", "This competition has sold out"],
      [{ status: "drawn", tickets_sold: 40 }, "competition_closed", "This competition has closed"],
      [{ status: "closed" }, "competition_closed", "This competition has closed"],
      [{ status: "draft" }, "competition_not_open", "This competition is not open for entries"],
      [
        { opens_at: new Date(now + hour).toISOString() },
        "competition_not_yet_open",
        /^Entries open on 23 November 2026 at 13:00$/,
      ],
      [{ closes_at: new Date(now).toISOString() }, "competition_closed", "This competition has closed"],
      [{ tickets_left: 0 }, "competition_sold_out", "This competition has sold out"],
    ];
    for (const [changes, code, message] of cases) {
      const block = entryBlock(competition(changes), now);
      expect(block?.code, JSON.stringify(changes)).toBe(code);
      expect(block?.message, JSON.stringify(changes)).toMatch(message);
    }
  });
});

describe("phaseOf", () => {
  it("separates a closed competition waiting for its draw from one that closed empty", () => {
    expect(phaseOf(competition({ closes_at: new Date(now).toISOString() }), now)).toBe("awaiting_draw");
    expect(phaseOf(competition({ closes_at: new Date(now).toISOString(), tickets_sold: 0 }), now)).toBe("closed");
    expect(phaseOf(competition({ opens_at: new Date(now + hour).toISOString() }), now)).toBe("upcoming");
    expect(phaseOf(live, now)).toBe("live");
  });
});
