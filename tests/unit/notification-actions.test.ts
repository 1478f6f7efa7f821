// The notification actions' input, as a form posts it: "Did I win?" takes a ticket number as people type it
// and says what is wrong in words of its own; marking read takes only a notification's id.
import { describe, expect, it } from "vitest";
import { parseForm } from "@/lib/actions/action";
import { checkTicketAction, markNotificationReadAction } from "@/lib/actions/notifications";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

const ticketMessage = (number: string) => {
  const parsed = parseForm(checkTicketAction.schema, form({ slug: "mega-prize", number }));
  return parsed.success ? parsed.data : parsed.error.issues.map((i) => i.message);
};

describe("Did I win?", () => {
  it("takes a number as the receipt shows it, with or without #, and spaces around", () => {
    expect(ticketMessage(" 42 ")).toEqual({ slug: "mega-prize", number: 42 });
    expect(ticketMessage("#7")).toEqual({ slug: "mega-prize", number: 7 });
  });

  it("says what is wrong with anything else", () => {
    expect(ticketMessage("")).toEqual(["Enter a ticket number"]);
    expect(ticketMessage("   ")).toEqual(["Enter a ticket number"]);
    for (const typed of ["abc", "1.5", "-3", "4 2", "1234567890"])
      expect(ticketMessage(typed)).toEqual(["Enter the ticket number in figures, for example 42"]);
    expect(ticketMessage("0")).toEqual(["Ticket numbers start at 1"]);
  });

  it("asks for a competition when none was posted", () => {
    const parsed = parseForm(checkTicketAction.schema, form({ number: "3" }));
    expect(parsed.success ? null : parsed.error.issues.map((i) => i.message)).toEqual(["Choose a competition"]);
  });
});

describe("marking one notification read", () => {
  it("takes a positive whole id, and calls anything else not found", () => {
    expect(parseForm(markNotificationReadAction.schema, form({ id: "12" })).data).toEqual({ id: 12 });
    for (const id of ["0", "-1", "x", "1.5", "9007199254740993"]) {
      const parsed = parseForm(markNotificationReadAction.schema, form({ id }));
      expect(parsed.success ? null : parsed.error.issues.map((i) => i.message)).toEqual([
        "That notification could not be found",
      ]);
    }
  });
});
