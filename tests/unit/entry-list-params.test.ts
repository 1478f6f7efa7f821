import { describe, expect, it } from "vitest";
import { entryListHref, parseEntryListParams, parseTicketNumber } from "@/lib/entry-list/params";

describe("the entry list's URL", () => {
  it("reads a ticket number as people type it", () => {
    expect(parseTicketNumber("42")).toBe(42);
    expect(parseTicketNumber(" #42 ")).toBe(42);
    expect(parseTicketNumber("# 7")).toBe(7);
    expect(parseTicketNumber("2147483647")).toBe(2147483647);
    for (const bad of ["", "0", "-3", "4.5", "1e3", "abc", "42a", "2147483648", "99999999999"]) {
      expect(parseTicketNumber(bad), bad).toBeNull();
    }
  });

  it("searches a good number and explains a bad one", () => {
    expect(parseEntryListParams({ ticket: "12" })).toMatchObject({ ticket: 12, ticketInput: "12", ticketError: null });
    expect(parseEntryListParams({ ticket: "twelve" })).toMatchObject({
      ticket: null,
      ticketInput: "twelve",
      ticketError: "Enter a ticket number: a whole number from 1, such as 42.",
    });
    expect(parseEntryListParams({ ticket: "  " })).toMatchObject({ ticket: null, ticketError: null });
    expect(parseEntryListParams({ ticket: ["5", "6"] })).toMatchObject({ ticket: 5 });
  });

  it("takes one cursor, and falls back to the first page on a bad link", () => {
    expect(parseEntryListParams({ after: "50" })).toMatchObject({ after: 50, before: null, cursorProblem: null });
    expect(parseEntryListParams({ before: "101" })).toMatchObject({ after: null, before: 101, cursorProblem: null });
    expect(parseEntryListParams({})).toMatchObject({ after: null, before: null, cursorProblem: null });
    for (const raw of [{ after: "x" }, { before: "-1" }, { after: "1", before: "9" }, { after: "99999999999" }]) {
      expect(parseEntryListParams(raw), JSON.stringify(raw)).toMatchObject({
        after: null,
        before: null,
        cursorProblem: "That page link could not be read, so the list starts from the first ticket.",
      });
    }
  });

  it("builds page links", () => {
    expect(entryListHref("big-prize")).toBe("/competitions/big-prize/entries");
    expect(entryListHref("big-prize", { after: 50 })).toBe("/competitions/big-prize/entries?after=50");
    expect(entryListHref("big-prize", { before: 51 })).toBe("/competitions/big-prize/entries?before=51");
  });
});
