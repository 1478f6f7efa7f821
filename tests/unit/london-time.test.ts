import { describe, expect, it } from "vitest";
import { isoToLondonLocal, londonDay, londonLocalToIso } from "@/lib/time/london";

// The UK clock through @date-fns/tz: what the admin forms send and show, and the CSV files' dates.
describe("UK time", () => {
  it("reads a wall-clock time across the clock changes", () => {
    // 29 March 2026, 01:00 GMT → 02:00 BST: 01:30 does not exist and is read as the same instant as 02:30 BST.
    expect(londonLocalToIso("2026-03-29T00:30")).toBe("2026-03-29T00:30:00.000Z");
    expect(londonLocalToIso("2026-03-29T01:30")).toBe("2026-03-29T01:30:00.000Z");
    expect(londonLocalToIso("2026-03-29T02:30")).toBe("2026-03-29T01:30:00.000Z");
    // 25 October 2026, 02:00 BST → 01:00 GMT: 01:30 happens twice, and the form means the second.
    expect(londonLocalToIso("2026-10-25T01:30")).toBe("2026-10-25T01:30:00.000Z");
    expect(londonLocalToIso("2026-10-25T03:00")).toBe("2026-10-25T03:00:00.000Z");
  });

  it("refuses what is not a date and time", () => {
    for (const value of ["2026-13-01T20:00", "2025-02-29T12:00", "2026-01-01T24:00", "2026-01-01", ""])
      expect(londonLocalToIso(value), value).toBeNull();
    expect(londonLocalToIso("2024-02-29T12:00")).toBe("2024-02-29T12:00:00.000Z");
  });

  it("shows an instant as the UK wall clock, and round-trips", () => {
    expect(isoToLondonLocal("2026-10-25T00:30:00.000Z")).toBe("2026-10-25T01:30");
    expect(isoToLondonLocal("2026-10-25T01:30:00.000Z")).toBe("2026-10-25T01:30");
    for (const iso of ["2026-07-01T19:00:00.000Z", "2026-12-31T23:59:00.000Z", "2027-03-28T00:59:00.000Z"])
      expect(londonLocalToIso(isoToLondonLocal(iso))).toBe(iso);
  });

  it("names the UK day of an instant", () => {
    expect(londonDay("2026-06-30T23:30:00Z")).toBe("2026-07-01");
    expect(londonDay("2026-12-31T23:30:00Z")).toBe("2026-12-31");
  });
});
