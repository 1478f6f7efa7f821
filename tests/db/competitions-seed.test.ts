import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyDraw, type PublishedDraw } from "@/lib/draws/verify";
import { anon, dbPerFile } from "./support";

const db = dbPerFile({ seed: true });

type Listed = {
  slug: string;
  status: string;
  images: string[];
  tickets_sold: number;
  total_tickets: number;
  draw: { id: string } | null;
};

describe("demo competitions", () => {
  it("cover every public state, with images that ship in public/", async () => {
    const list = await db().call<Listed[]>(anon, "list_competitions");
    const statuses = new Set(list.map((c) => c.status));
    for (const s of ["live", "drawn", "closed", "cancelled"]) expect(statuses).toContain(s);
    expect(list.some((c) => c.status === "live" && c.total_tickets - c.tickets_sold <= 0.05 * c.total_tickets)).toBe(
      true,
    );
    const drafts = await db().sql("select 1 from public.competitions where status = 'draft'");
    expect(drafts.length).toBeGreaterThan(0);
    for (const c of list) {
      for (const image of c.images) expect(existsSync(path.join(process.cwd(), "public", image)), image).toBe(true);
    }
    expect(await db().ledgerMismatches()).toEqual([]);
  });

  it("every seeded draw verifies from its published inputs", async () => {
    const winners = await db().call<Array<{ draw_id: string }>>(anon, "list_winners");
    expect(winners.length).toBeGreaterThanOrEqual(2);
    for (const w of winners) {
      const draw = await db().call<PublishedDraw>(anon, "get_draw", { p_draw_id: w.draw_id });
      const result = await verifyDraw(draw);
      expect(result.ok, JSON.stringify(result.checks)).toBe(true);
    }
  });
});
