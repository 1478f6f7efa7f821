import { describe, expect, it } from "vitest";
import { composeSchema, segmentText, sendSchema } from "@/lib/mail/mail-fields";
import { newerOutboxHref, olderOutboxHref, outboxHref, parseOutboxQuery } from "@/lib/mail/outbox-filters";

const CAMPAIGN = "0b7c1a4e-0000-4000-8000-000000000001";

describe("the compose form's fields", () => {
  it("trims, keeps line breaks as SQL counts them, and leaves the competition out unless the segment needs it", () => {
    const parsed = composeSchema.parse({
      kind: "marketing",
      segment: "all_players",
      competitionId: CAMPAIGN,
      subject: "  News  ",
      body: "  Line one\r\nline two, long enough.  ",
    });
    expect(parsed).toEqual({
      kind: "marketing",
      segment: "all_players",
      competitionId: null,
      subject: "News",
      body: "Line one\nline two, long enough.",
    });
  });

  it("gives one message per bad field", () => {
    const result = composeSchema.safeParse({
      kind: "spam",
      segment: "competition_entrants",
      competitionId: "",
      subject: "Two\nlines",
      body: "x".repeat(5001),
    });
    const messages = Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
    expect(messages).toEqual({
      kind: "Choose marketing or a service notice",
      subject: "Keep the subject on one line",
      body: "Keep the message to 5,000 characters",
    });
    const entrants = composeSchema.safeParse({
      kind: "service",
      segment: "competition_entrants",
      competitionId: "",
      subject: "Hi",
      body: "short",
    });
    expect(entrants.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ["subject", "Give a subject of 3 to 120 characters"],
      ["body", "Write a message of 20 to 5,000 characters"],
      ["competitionId", "Choose the competition"],
    ]);
  });

  it("sends only with the preview's request id", () => {
    const draft = { kind: "service", segment: "no_recent_entry", subject: "Hello", body: "A message long enough." };
    expect(sendSchema.safeParse(draft).error?.issues.map((i) => i.message)).toEqual([
      "Preview the mail again before sending",
    ]);
    expect(sendSchema.parse({ ...draft, requestId: CAMPAIGN })).toMatchObject({
      requestId: CAMPAIGN,
      competitionId: null,
    });
  });

  it("names a segment in words", () => {
    expect(segmentText("competition_entrants", { title: "Steam Deck" })).toBe("Entrants of Steam Deck");
    expect(segmentText("no_recent_entry", null)).toBe("Players with no entry in 30 days");
  });
});

describe("the outbox's URL", () => {
  it("reads the campaign, status and cursor; drops a bad value with a note", () => {
    expect(parseOutboxQuery({ campaign: CAMPAIGN, status: "failed", sent: "1" })).toEqual({
      query: { campaign: CAMPAIGN, status: "failed", before: null, trail: [], sent: "1" },
      ignored: [],
    });
    const bad = parseOutboxQuery({ campaign: "x'; drop", status: "bounced", before: "-1", sent: "yes" });
    expect(bad.query).toEqual({ campaign: null, status: null, before: null, trail: [], sent: null });
    expect(bad.ignored).toHaveLength(3);
  });

  it("pages older and newer with the keyset cursor, keeping the filter", () => {
    const first = parseOutboxQuery({ campaign: CAMPAIGN }).query;
    const page2 = olderOutboxHref(first, 900)!;
    expect(page2).toBe(`/admin/mail?campaign=${CAMPAIGN}&before=900#outbox`);
    const second = parseOutboxQuery(Object.fromEntries(new URL(page2, "http://x").searchParams)).query;
    const page3 = olderOutboxHref(second, 850)!;
    expect(page3).toBe(`/admin/mail?campaign=${CAMPAIGN}&before=850&trail=900#outbox`);
    const third = parseOutboxQuery(Object.fromEntries(new URL(page3, "http://x").searchParams)).query;
    expect(newerOutboxHref(third)).toBe(page2);
    expect(newerOutboxHref(second)).toBe(outboxHref({ campaign: CAMPAIGN, status: null }));
    expect(newerOutboxHref(first)).toBeNull();
    expect(olderOutboxHref(first, null)).toBeNull();
  });
});
