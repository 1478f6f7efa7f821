import { describe, expect, it } from "vitest";
import {
  badgeLabel,
  drawPendingLine,
  entryBlock,
  oddsText,
  opensOnPublish,
  phaseOf,
  postalBlock,
  type Phase,
} from "@/lib/competitions/status";
import type { Competition } from "@/lib/data/competitions";
import { at, HOUR as hour, liveCompetition, NOW as now } from "./support/competition";

const live = liveCompetition();
const competition = liveCompetition;
const soldOut = competition({ status: "sold_out", tickets_sold: 100, tickets_left: 0, entry_list_open: true });
const closedWithSales = competition({ closes_at: at(0) });
const drawn = competition({
  status: "drawn",
  draw: {
    id: "00000000-0000-4000-8000-000000000002",
    winning_number: 4,
    winner_display_name: "Priya P.",
    winner_town: null,
    ticket_count: 10,
    drawn_at: at(-1),
    algorithm: "labcash-draw-v2",
    story: null,
  },
});

describe("entryBlock (online entries, as lock_competition_for_entry)", () => {
  it("is null while online sales are open", () => {
    expect(entryBlock(live, now)).toBeNull();
  });

  it("gives the database's code and message for each reason online entries are shut", () => {
    const cases: [Partial<Competition>, string, string | RegExp][] = [
      [{ status: "cancelled" }, "competition_cancelled", "This competition has been cancelled"],
      [{ status: "sold_out" }, "competition_sold_out", "This competition has sold out"],
      [{ status: "drawn", tickets_left: 0 }, "competition_sold_out", "This competition has sold out"],
      [{ status: "drawn", tickets_left: 60 }, "competition_closed", "This competition has closed"],
      [{ status: "closed" }, "competition_closed", "This competition has closed"],
      [{ status: "draft" }, "competition_not_open", "This competition is not open for entries"],
      [
        { opens_at: at(1), closes_at: at(2) },
        "competition_not_yet_open",
        /^Entries open on 23 November 2026 at 13:00$/,
      ],
      [{ closes_at: at(0) }, "competition_closed", "This competition has closed"],
      [{ tickets_left: 0 }, "competition_sold_out", "This competition has sold out"],
    ];
    for (const [changes, code, message] of cases) {
      const block = entryBlock(competition(changes), now);
      expect(block?.code, JSON.stringify(changes)).toBe(code);
      expect(block?.message, JSON.stringify(changes)).toMatch(message);
    }
  });
});

describe("postalBlock (letters, as admin_record_postal_entry)", () => {
  it("keeps the free route open after a sell-out or the close, until the postal deadline", () => {
    expect(postalBlock(live, now)).toBeNull();
    expect(postalBlock(soldOut, now)).toBeNull();
    expect(postalBlock(closedWithSales, now)).toBeNull();
  });

  it("closes it at the postal deadline, at the draw, and for cancelled competitions", () => {
    expect(postalBlock(competition({ postal_deadline: at(0) }), now)).toEqual({
      code: "postal_deadline_passed",
      message: "Postal entries for this competition closed on 23 November 2026 at 12:00",
    });
    expect(postalBlock(drawn, now)?.code).toBe("postal_deadline_passed");
    expect(postalBlock(competition({ status: "cancelled" }), now)?.code).toBe("competition_cancelled");
    expect(postalBlock(competition({ status: "draft" }), now)?.code).toBe("competition_not_open");
  });

  it("takes letters from the opening time, as online entries", () => {
    expect(postalBlock(competition({ opens_at: at(1), closes_at: at(2) }), now)).toEqual({
      code: "competition_not_yet_open",
      message: "Entries open on 23 November 2026 at 13:00",
    });
  });
});

describe("phaseOf", () => {
  const cases: [string, Competition, Phase][] = [
    ["published, not open yet", competition({ opens_at: at(1), closes_at: at(2) }), "upcoming"],
    ["online sales open", live, "live"],
    ["sold out, before the postal deadline", soldOut, "postal_window"],
    ["sold out but still marked live (the row not yet updated)", competition({ tickets_left: 0 }), "postal_window"],
    ["past the close, before the postal deadline", closedWithSales, "postal_window"],
    ["status closed before the postal deadline", competition({ status: "closed", closes_at: at(0) }), "postal_window"],
    [
      "past the postal deadline, before the draw",
      competition({ status: "sold_out", tickets_left: 0, closes_at: at(-3), postal_deadline: at(-1) }),
      "awaiting_draw",
    ],
    [
      "past the draw time with tickets, not drawn yet",
      competition({ closes_at: at(-3), postal_deadline: at(-2), draw_at: at(-1) }),
      "awaiting_draw",
    ],
    [
      "past the draw time with postal tickets only",
      competition({ tickets_sold: 0, postal_tickets: 2, closes_at: at(-3), postal_deadline: at(-2), draw_at: at(-1) }),
      "awaiting_draw",
    ],
    [
      "past the draw time with no tickets at all",
      competition({ tickets_sold: 0, closes_at: at(-3), postal_deadline: at(-2), draw_at: at(-1) }),
      "closed",
    ],
    [
      "closed by the cron with no tickets",
      competition({ status: "closed", tickets_sold: 0, closes_at: at(-3), postal_deadline: at(-2), draw_at: at(-1) }),
      "closed",
    ],
    ["drawn", drawn, "drawn"],
    ["cancelled", competition({ status: "cancelled" }), "cancelled"],
    ["draft", competition({ status: "draft" }), "draft"],
  ];
  for (const [name, c, phase] of cases) {
    it(`${name}: ${phase}`, () => expect(phaseOf(c, now)).toBe(phase));
  }

  it("a sell-out does not bring the draw forward: sold out stays waiting until the draw time", () => {
    const noPostalWindow = competition({
      status: "sold_out",
      tickets_left: 0,
      closes_at: at(-2),
      postal_deadline: at(-1),
      draw_at: at(5),
    });
    expect(phaseOf(noPostalWindow, now)).toBe("awaiting_draw");
    expect(phaseOf(noPostalWindow, now + 6 * hour)).toBe("awaiting_draw");
  });
});

describe("what the card and page say", () => {
  it("a sold-out competition waiting for its draw says when it is drawn, with an em dash", () => {
    expect(drawPendingLine(soldOut, now)).toBe("Sold out — drawn on 26 November 2026 at 13:00");
    expect(badgeLabel(soldOut, now)).toBe("Sold out");
  });

  it("a closed one that did not sell out says online entries closed; a due draw says it is drawing now", () => {
    expect(drawPendingLine(closedWithSales, now)).toBe("Online entries closed — drawn on 26 November 2026 at 13:00");
    expect(badgeLabel(closedWithSales, now)).toBe("Postal entries only");
    const due = competition({ status: "sold_out", tickets_left: 0, postal_deadline: at(-1), draw_at: at(-1) });
    expect(drawPendingLine(due, now)).toBe("Sold out — drawing now");
    expect(badgeLabel(due, now)).toBe("Drawing now");
  });

  it("says nothing of a pending draw in other phases", () => {
    expect(drawPendingLine(live, now)).toBeNull();
    expect(drawPendingLine(drawn, now)).toBeNull();
    expect(badgeLabel(live, now)).toBe("Live");
  });

  it("gives the odds with N the online tickets, plus the free postal entries", () => {
    expect(oddsText(competition({ total_tickets: 2500 }))).toBe("1 in 2,500 per ticket, plus free postal entries");
  });
});

describe("opensOnPublish", () => {
  it("says now for a draft whose opening time has passed (saved with the field empty), and the UK time otherwise", () => {
    expect(opensOnPublish(at(-2), now)).toBe("Now, as soon as it is published");
    expect(opensOnPublish(new Date(now).toISOString(), now)).toBe("Now, as soon as it is published");
    // 23 November is GMT; 1 July is BST, an hour ahead of UTC.
    expect(opensOnPublish(at(3), now)).toBe("23 Nov 2026, 15:00");
    expect(opensOnPublish("2027-07-01T09:30:00Z", now)).toBe("1 Jul 2027, 10:30");
  });
});
