import { describe, expect, it } from "vitest";
import {
  ledgerCsvHref,
  ledgerHref,
  ledgerKindLabel,
  monthStart,
  newerHref,
  olderHref,
  parseLedgerQuery,
} from "@/lib/account/ledger-filters";

describe("parseLedgerQuery", () => {
  it("reads a kind, a month and a cursor with its trail", () => {
    expect(parseLedgerQuery({ kind: "top_up", month: "2026-11", before: "120", trail: "300,210" })).toEqual({
      query: { kind: "top_up", month: "2026-11", before: 120, trail: [300, 210] },
      ignored: [],
    });
  });

  it("treats empty values (the form's 'All kinds', an empty month) as no filter", () => {
    expect(parseLedgerQuery({ kind: "", month: " " })).toEqual({
      query: { kind: null, month: null, before: null, trail: [] },
      ignored: [],
    });
  });

  it("drops each bad value on its own and says why, keeping the good ones", () => {
    const { query, ignored } = parseLedgerQuery({ kind: "cash'; drop table", month: "2026-11", before: "-4" });
    expect(query).toEqual({ kind: null, month: "2026-11", before: null, trail: [] });
    expect(ignored).toEqual([
      "“cash'; drop table” is not a kind of movement, so every kind is shown.",
      "That page link was not valid, so the newest page is shown.",
    ]);
  });

  it.each(["2026-13", "2026-1", "1999-12", "2026-11-01", "november"])("refuses the month %s", (month) => {
    const { query, ignored } = parseLedgerQuery({ month });
    expect(query.month).toBeNull();
    expect(ignored).toHaveLength(1);
  });

  it.each(["0", "1.5", "1e3", "9999999999999999", "abc"])("refuses the cursor %s", (before) => {
    expect(parseLedgerQuery({ before }).query.before).toBeNull();
  });

  it("takes the first of a repeated parameter", () => {
    expect(parseLedgerQuery({ kind: ["bonus", "entry"] }).query.kind).toBe("bonus");
  });

  it("loses only the trail when the trail is bad", () => {
    const { query, ignored } = parseLedgerQuery({ before: "50", trail: "90,x" });
    expect(query).toEqual({ kind: null, month: null, before: 50, trail: [] });
    expect(ignored).toEqual(["The link back to newer pages was lost."]);
  });
});

describe("ledger links", () => {
  const filters = { kind: "entry" as const, month: "2026-10" };

  it("walk older and back newer through the same pages", () => {
    const first = { ...filters, before: null, trail: [] };
    const second = olderHref(first, 151)!;
    expect(second).toBe("/account/credits?kind=entry&month=2026-10&before=151");
    const secondQuery = parseLedgerQuery(Object.fromEntries(new URL(second, "http://x").searchParams)).query;
    const third = olderHref(secondQuery, 101)!;
    expect(third).toBe("/account/credits?kind=entry&month=2026-10&before=101&trail=151");
    const thirdQuery = parseLedgerQuery(Object.fromEntries(new URL(third, "http://x").searchParams)).query;
    expect(newerHref(thirdQuery)).toBe(second);
    expect(newerHref(secondQuery)).toBe("/account/credits?kind=entry&month=2026-10");
    expect(newerHref(first)).toBeNull();
    expect(olderHref(thirdQuery, null)).toBeNull();
  });

  it("filter without paging, and export the same filter", () => {
    expect(ledgerHref({ kind: null, month: null })).toBe("/account/credits");
    expect(ledgerCsvHref(filters)).toBe("/account/credits/export?kind=entry&month=2026-10");
    expect(ledgerCsvHref({ kind: null, month: null })).toBe("/account/credits/export");
  });

  it("turn a month into its first day for the SQL", () => {
    expect(monthStart("2026-10")).toBe("2026-10-01");
    expect(monthStart(null)).toBeNull();
  });
});

describe("ledgerKindLabel", () => {
  it("names each kind for people, and shows an unknown kind as stored", () => {
    expect(ledgerKindLabel("top_up_reversal")).toBe("Top-up reversal");
    expect(ledgerKindLabel("admin_adjustment")).toBe("Adjustment");
    expect(ledgerKindLabel("spinner_prize")).toBe("Spinner prize");
    expect(ledgerKindLabel("something_new")).toBe("something_new");
  });
});
