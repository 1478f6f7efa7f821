import { describe, expect, it } from "vitest";
import {
  competitionFilterSearch,
  matchesQuery,
  readCompetitionFilter,
  searchCompetitions,
  type CompetitionSearchRecord,
} from "@/lib/competitions/search";
import { searchShortcut } from "@/lib/search-shortcut";

// Prizes can be found, in the palette and on /competitions.

const records: CompetitionSearchRecord[] = [
  { id: "/competitions/ps5", title: "PlayStation 5 bundle", prize: "A PS5 with an iPhone charger", state: "Live" },
  { id: "/competitions/iphone", title: "iPhone 17 Pro Max", prize: "Apple iPhone 17 Pro Max, 256 GB", state: "Live" },
  { id: "/competitions/cafe", title: "Café machine", prize: "An espresso machine", state: "Drawn" },
];

describe("matchesQuery", () => {
  it("needs every word, anywhere, ignoring case and accents", () => {
    expect(matchesQuery("Apple iPhone 17 Pro Max", "iphone")).toBe(true);
    expect(matchesQuery("Apple iPhone 17 Pro Max", "max IPHONE")).toBe(true);
    expect(matchesQuery("Apple iPhone 17 Pro Max", "iphone mini")).toBe(false);
    expect(matchesQuery("Café machine", "cafe")).toBe(true);
    expect(matchesQuery("anything", "  ")).toBe(true);
  });
});

describe("searchCompetitions", () => {
  it("finds by title, prize or state, title matches first", () => {
    expect(searchCompetitions(records, "iphone", 42).map((r) => r.id)).toEqual([
      "/competitions/iphone",
      "/competitions/ps5",
    ]);
    expect(searchCompetitions(records, "espresso", 42).map((r) => r.id)).toEqual(["/competitions/cafe"]);
    expect(searchCompetitions(records, "drawn", 42).map((r) => r.id)).toEqual(["/competitions/cafe"]);
  });

  it("gives nothing for an empty query and stops at the limit", () => {
    expect(searchCompetitions(records, "", 42)).toEqual([]);
    expect(searchCompetitions(records, "live", 1)).toHaveLength(1);
  });
});

describe("the /competitions filter in the address", () => {
  it("reads q and a known state, dropping anything else", () => {
    expect(readCompetitionFilter("?q=iphone&state=live")).toEqual({ q: "iphone", state: "live" });
    expect(readCompetitionFilter("?state=nonsense")).toEqual({ q: "", state: null });
    expect(readCompetitionFilter("")).toEqual({ q: "", state: null });
    expect(readCompetitionFilter(`?q=${"x".repeat(300)}`).q).toHaveLength(100);
  });

  it("writes only what is set", () => {
    expect(competitionFilterSearch({ q: "iphone 17", state: "drawn" })).toBe("?q=iphone+17&state=drawn");
    expect(competitionFilterSearch({ q: " ", state: null })).toBe("");
    expect(readCompetitionFilter(competitionFilterSearch({ q: "Café", state: "opening-soon" }))).toEqual({
      q: "Café",
      state: "opening-soon",
    });
  });
});

describe("searchShortcut", () => {
  it("is ⌘K on Apple devices and Ctrl K elsewhere", () => {
    for (const platform of ["MacIntel", "macOS", "iPhone", "iPad"]) expect(searchShortcut(platform).label).toBe("⌘K");
    for (const platform of ["Linux x86_64", "Win32", "Windows", "Android", ""])
      expect(searchShortcut(platform)).toEqual({ label: "Ctrl K", keys: "Control+K" });
  });
});
