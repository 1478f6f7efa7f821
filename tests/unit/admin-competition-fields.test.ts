import { describe, expect, it } from "vitest";
import { createCompetitionSchema, updateCompetitionSchema } from "@/lib/competitions/competition-fields";
import { isoToLondonLocal, londonLocalToIso } from "@/lib/time/london";
import { formInput } from "@/lib/actions/action";

/** What the browser posts: text fields, and the six answer boxes under one name. */
function posted(fields: Record<string, string>, options: string[] = []) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const option of options) form.append("skill_options", option);
  return formInput(form);
}

const ID = "6a1f0a4e-1111-4222-8333-944455556666";

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

describe("UK times", () => {
  it("reads a datetime-local value as UK time, summer and winter", () => {
    expect(londonLocalToIso("2026-07-01T20:00")).toBe("2026-07-01T19:00:00.000Z");
    expect(londonLocalToIso("2026-12-01T20:00")).toBe("2026-12-01T20:00:00.000Z");
    expect(londonLocalToIso("2026-02-30T20:00")).toBeNull();
    expect(londonLocalToIso("tomorrow")).toBeNull();
    expect(isoToLondonLocal("2026-07-01T19:00:00.000Z")).toBe("2026-07-01T20:00");
    expect(isoToLondonLocal(null)).toBe("");
  });
});

describe("the new-competition form", () => {
  it("gives one message per field for an empty form", () => {
    const result = createCompetitionSchema.safeParse(posted({}));
    expect(messages(result)).toEqual({
      title: "Give a title of 3 to 120 characters",
      prize_description: "Describe the prize (up to 2,000 characters)",
      prize_value: "Give the prize value in pounds, e.g. 1200 or 1199.99",
      ticket_price: "Give the ticket price in pounds and pence, at least £0.25",
      total_tickets: "Give the number of tickets, from 1 to 1,000,000",
      max_tickets_per_user: "Give the tickets one person may hold, at least 1",
      closes_at: "Give the closing date and time",
      ticket_numbering: "Choose how the tickets are numbered",
    });
  });

  it("refuses a price under £0.25, dates out of order and a question without a correct answer among the options", () => {
    const result = createCompetitionSchema.safeParse(
      posted(
        {
          title: "A prize",
          prize_description: "A prize",
          prize_value: "10",
          ticket_price: "0.24",
          total_tickets: "10",
          max_tickets_per_user: "11",
          ticket_numbering: "in_order",
          opens_at: "2026-12-02T10:00",
          closes_at: "2026-12-03T10:00",
          postal_deadline: "2026-12-03T09:00",
          draw_at: "2026-12-02T10:00",
          skill_question: "Which is a fruit?",
          skill_answer: "2",
        },
        ["Apple", "apple", "", "", "", ""],
      ),
    );
    expect(messages(result)).toEqual({
      ticket_price: "The ticket price must be from £0.25 to £10,000",
      max_tickets_per_user: "Tickets per person cannot be more than the total number of tickets",
      postal_deadline:
        "The postal deadline cannot be before the close: the free route must not be shorter than the paid one",
      draw_at: "The draw must be at or after the postal deadline",
      skill_options: "The answers to choose from must all differ",
      skill_answer: "Choose which of the answers is correct",
    });
  });

  it("reports the checks between fields together with a wrong field, not after it is fixed", () => {
    const result = createCompetitionSchema.safeParse(
      posted({
        title: "",
        prize_description: "A prize",
        prize_value: "10",
        ticket_price: "1",
        total_tickets: "ten",
        max_tickets_per_user: "5",
        ticket_numbering: "pick",
        opens_at: "2026-12-03T10:00",
        closes_at: "2026-12-02T10:00",
      }),
    );
    expect(messages(result)).toEqual({
      title: "Give a title of 3 to 120 characters",
      total_tickets: "Give the number of tickets, from 1 to 1,000,000",
      closes_at: "The close must be after the opening",
    });
  });

  it("sends SQL the fields with money as text, UK times as instants and the chosen answer's text", () => {
    const result = createCompetitionSchema.parse(
      posted(
        {
          title: " Steam Deck ",
          slug: "Steam-Deck",
          prize_description: "A Steam Deck OLED\r\nwith its case",
          prize_value: "479",
          cash_alternative: "",
          images: "/competitions/a.svg\n\n https://example.com/b.png ",
          ticket_price: "0.25",
          total_tickets: "100",
          max_tickets_per_user: "10",
          ticket_numbering: "pick",
          opens_at: "",
          closes_at: "2026-07-01T20:00",
          postal_deadline: "",
          draw_at: "",
          skill_question: "Which is a fruit?",
          skill_answer: "3",
        },
        ["Brick", "", "Stone", "Apple", "", ""],
      ),
    );
    expect(result).toEqual({
      title: "Steam Deck",
      slug: "steam-deck",
      summary: "",
      description: "",
      prize_description: "A Steam Deck OLED\nwith its case",
      prize_value: "479",
      cash_alternative: null,
      images: ["/competitions/a.svg", "https://example.com/b.png"],
      ticket_price: "0.25",
      total_tickets: 100,
      max_tickets_per_user: 10,
      ticket_numbering: "pick",
      closes_at: "2026-07-01T19:00:00.000Z",
      postal_deadline: null,
      draw_at: null,
      skill_question: "Which is a fruit?",
      skill_options: ["Brick", "Stone", "Apple"],
      skill_answer: "Apple",
      // No charity radio ticked is no charity partner.
      charity: null,
      // No further prize on the form: the first prize alone.
      prizes: [],
    });
  });
});

describe("the edit form", () => {
  it("sends only the fields the page let change (disabled ones are not posted)", () => {
    const result = updateCompetitionSchema.parse(
      posted({
        id: ID,
        title: "New title",
        summary: "",
        description: "",
        prize_description: "P",
        prize_value: "1",
        images: "",
      }),
    );
    expect(result).toEqual({
      id: ID,
      fields: {
        title: "New title",
        summary: "",
        description: "",
        prize_description: "P",
        prize_value: "1",
        images: [],
      },
    });
  });

  it("checks what is sent", () => {
    const result = updateCompetitionSchema.safeParse(posted({ id: ID, ticket_price: "0.10", closes_at: "" }));
    expect(messages(result)).toEqual({
      ticket_price: "The ticket price must be from £0.25 to £10,000",
      closes_at: "Give the closing date and time",
    });
  });
});

/** The new form's required fields, filled, so a test looks only at the prizes. */
const FILLED = {
  title: "Three prizes",
  prize_description: "A bicycle",
  prize_value: "900",
  ticket_price: "1",
  total_tickets: "100",
  max_tickets_per_user: "10",
  ticket_numbering: "in_order",
  closes_at: "2026-07-01T20:00",
};

describe("the prizes after the first", () => {
  it("sends each prize the count says the form holds, money as text, an empty cash alternative as none", () => {
    const result = createCompetitionSchema.parse(
      posted({
        ...FILLED,
        prize_count: "3",
        prize_2_description: " Wireless earbuds\r\nin their case ",
        prize_2_value: "149.99",
        prize_2_cash_alternative: "",
        prize_3_description: "A voucher",
        prize_3_value: "0",
        prize_3_cash_alternative: "25",
        // Past the count: a row removed on the page sends nothing, and anything past it is not read.
        prize_4_description: "",
      }),
    );
    expect(result.prizes).toEqual([
      { description: "Wireless earbuds\nin their case", value: "149.99", cash_alternative: null },
      { description: "A voucher", value: "0", cash_alternative: "25" },
    ]);
  });

  it("names the prize in each message, beside the field to fix, with the other fields' messages", () => {
    const result = createCompetitionSchema.safeParse(
      posted({
        ...FILLED,
        title: "",
        prize_count: "4",
        prize_2_description: "   ",
        prize_2_value: "£20",
        prize_2_cash_alternative: "0",
        prize_3_description: "x".repeat(2001),
        prize_3_value: "10000000.01",
        prize_3_cash_alternative: "10000001",
        // The 4th prize's fields were not sent at all.
      }),
    );
    expect(messages(result)).toEqual({
      title: "Give a title of 3 to 120 characters",
      prize_2_description: "Describe the 2nd prize (up to 2,000 characters)",
      prize_2_value: "Give the 2nd prize's value in pounds, at most £10,000,000, e.g. 250 or 249.99",
      prize_2_cash_alternative:
        "Give the 2nd prize's cash alternative in pounds above £0 and at most £10,000,000, or leave it empty",
      prize_3_description: "Describe the 3rd prize (up to 2,000 characters)",
      prize_3_value: "Give the 3rd prize's value in pounds, at most £10,000,000, e.g. 250 or 249.99",
      prize_3_cash_alternative:
        "Give the 3rd prize's cash alternative in pounds above £0 and at most £10,000,000, or leave it empty",
      prize_4_description: "Describe the 4th prize (up to 2,000 characters)",
      prize_4_value: "Give the 4th prize's value in pounds, at most £10,000,000, e.g. 250 or 249.99",
    });
  });

  it("takes at most 10 prizes in all", () => {
    const tenth = createCompetitionSchema.safeParse(
      posted({ ...FILLED, prize_count: "10", prize_10_description: "The last", prize_10_value: "1" }),
    );
    expect(messages(tenth).prize_10_description).toBeUndefined();
    expect(messages(tenth).prize_9_description).toBe("Describe the 9th prize (up to 2,000 characters)");
    for (const count of ["11", "0", "two", "-1"]) {
      const result = createCompetitionSchema.safeParse(posted({ ...FILLED, prize_count: count }));
      expect(messages(result), count).toEqual({ prize_count: "Give at most 10 prizes" });
    }
  });

  it("on the edit form, replaces the list when the form sent its count, an empty one when all were removed", () => {
    expect(updateCompetitionSchema.parse(posted({ id: ID, prize_count: "1" })).fields).toEqual({ prizes: [] });
    expect(
      updateCompetitionSchema.parse(
        posted({ id: ID, prize_count: "2", prize_2_description: "A mug", prize_2_value: "12.50" }),
      ).fields,
    ).toEqual({ prizes: [{ description: "A mug", value: "12.50", cash_alternative: null }] });
    // Without the count the prizes were not on the form: the list stays as it is.
    expect(updateCompetitionSchema.parse(posted({ id: ID, title: "New title" })).fields).toEqual({
      title: "New title",
    });
  });
});

describe("image addresses", () => {
  it("refuses what a browser would read as another host, and spaces", () => {
    for (const images of [
      "/\\evil.example/x.png",
      "//evil.example/x.png",
      "/a b.png",
      "https://cdn.example/a\\b.png",
      "http://x/a.png",
    ]) {
      const result = updateCompetitionSchema.safeParse(posted({ id: ID, images }));
      expect(messages(result).images, images).toBe(
        "Each image is a path starting with / or an https:// address, one per line",
      );
    }
  });
});
