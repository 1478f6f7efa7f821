import { describe, expect, it } from "vitest";
import { formatGBP, formatWinner } from "@/lib/format";

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
