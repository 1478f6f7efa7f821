import { describe, expect, it } from "vitest";
import { formatGBP, formatPounds, formatWinner } from "@/lib/format";

describe("formatWinner", () => {
  it("adds the town only when the winner gave one", () => {
    expect(formatWinner({ winner_display_name: "Priya P.", winner_town: "Leeds" })).toBe("Priya P., Leeds");
    expect(formatWinner({ winner_display_name: "Priya P.", winner_town: null })).toBe("Priya P.");
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
