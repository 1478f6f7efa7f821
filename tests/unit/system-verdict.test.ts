import { describe, expect, it } from "vitest";
import { systemVerdict, type SystemConcern } from "@/lib/operations/system-verdict";

const concern = (section: string, count: number, one: string, many?: string): SystemConcern => ({
  section,
  count,
  one,
  many,
});

describe("systemVerdict", () => {
  it("is all well when nothing in the list holds anything", () => {
    expect(systemVerdict([concern("alerts", 0, "open alert", "open alerts")])).toEqual({
      headline: "All well",
      items: [],
    });
    expect(systemVerdict([])).toEqual({ headline: "All well", items: [] });
  });

  it("counts every thing in the list and names each section that holds one", () => {
    const verdict = systemVerdict([
      concern("alerts", 1, "open alert", "open alerts"),
      concern("overdue", 0, "overdue draw", "overdue draws"),
      concern("mail", 1_200, "failed e-mail", "failed e-mails"),
    ]);
    expect(verdict).toEqual({
      headline: "1,201 things need a person",
      items: [
        { section: "alerts", words: "1 open alert" },
        { section: "mail", words: "1,200 failed e-mails" },
      ],
    });
    expect(systemVerdict([concern("cron", 1, "scheduled job stopped")]).headline).toBe("1 thing needs a person");
  });
});
