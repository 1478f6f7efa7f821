import { describe, expect, it } from "vitest";
import { endSentence, formatDate, formatDateTime, formatGBP, formatPounds, formatWinner } from "@/lib/format";

describe("formatWinner", () => {
  it("adds the town only when the winner gave one", () => {
    expect(formatWinner({ winner_display_name: "Priya P.", winner_town: "Leeds" })).toBe("Priya P., Leeds");
    expect(formatWinner({ winner_display_name: "Priya P.", winner_town: null })).toBe("Priya P.");
  });
});

describe("endSentence", () => {
  it("ends a sentence with one full stop, never two after a name's initial", () => {
    expect(endSentence("Priya P.")).toBe("Priya P.");
    expect(endSentence("Priya P., Leeds")).toBe("Priya P., Leeds.");
    expect(endSentence("P. P.")).toBe("P. P.");
  });
});

describe("formatGBP", () => {
  it("shows pounds and pence the British way", () => {
    expect(formatGBP(0.25)).toBe("£0.25");
    expect(formatGBP(5000)).toBe("£5,000.00");
  });
});

describe("formatPounds", () => {
  it("drops the pence of whole pounds (prize values, cash alternatives) and keeps them otherwise", () => {
    expect(formatPounds(1200)).toBe("£1,200");
    expect(formatPounds(1200.5)).toBe("£1,200.50");
    expect(formatPounds(0.87)).toBe("£0.87");
  });
});

describe("formatDate and formatDateTime", () => {
  it("read every instant in the UK, whatever the server's zone", () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in London (BST); in January the UK is on UTC.
    expect(formatDate("2026-06-30T23:30:00Z")).toBe("1 July 2026");
    expect(formatDateTime("2026-06-30T23:30:00Z")).toBe("1 Jul 2026, 00:30");
    expect(formatDate("2026-01-15T23:30:00Z")).toBe("15 January 2026");
  });

  it("give a blog post's date-only day as that day", () => {
    expect(formatDate("2026-01-15")).toBe("15 January 2026");
    expect(formatDate("2026-07-15")).toBe("15 July 2026");
    expect(formatDate(new Date("2026-07-15"))).toBe("15 July 2026");
  });
});
