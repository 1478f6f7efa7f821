import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bytesToHex, sha256 } from "@/lib/crypto/bytes";
import { verifyDraw, type PublishedDraw } from "@/lib/draws/verify";
import { verifyInstantWins, type PublishedInstantWins } from "@/lib/instant-wins/derive";
import { anon, dbPerFile } from "./support";

const db = dbPerFile({ seed: true });

type Listed = {
  slug: string;
  status: string;
  images: string[];
  opens_at: string;
  closes_at: string;
  postal_deadline: string;
  draw_at: string;
  tickets_sold: number;
  total_tickets: number;
  postal_entries: number;
  postal_tickets: number;
  postal_tickets_per_entry: number;
  cash_alternative: number | null;
  ticket_numbering: "in_order" | "pick";
  entry_list_open: boolean;
  draw: { id: string; algorithm: string } | null;
};

type EntryList = {
  ticket_count: number;
  rows: Array<{ number: number; ticket_id: string; entrant: string; town: string | null; route: "online" | "postal" }>;
  has_after: boolean;
};

async function competitions(): Promise<Map<string, Listed>> {
  const list = await db().call<Listed[]>(anon, "list_competitions");
  return new Map(list.map((c) => [c.slug, c]));
}

const time = (iso: string) => new Date(iso).getTime();

describe("demo competitions", () => {
  it("cover every public state, dates in order, with images that ship in public/", async () => {
    const bySlug = await competitions();
    const now = Date.now();
    const get = (slug: string) => {
      const c = bySlug.get(slug);
      expect(c, slug).toBeDefined();
      return c!;
    };

    // Live, with a cash alternative.
    const iphone = get("iphone-17-pro-max");
    expect(iphone.status).toBe("live");
    expect(time(iphone.opens_at)).toBeLessThan(now);
    expect(time(iphone.closes_at)).toBeGreaterThan(now);
    expect(iphone.cash_alternative).toBe(1050);

    // Live, numbers picked by the players (chosen ones and lucky dips), so the number grid has both to show.
    const cash = get("500-cash-pick-your-numbers");
    expect(cash.status).toBe("live");
    expect(cash.ticket_numbering).toBe("pick");
    expect(iphone.ticket_numbering).toBe("in_order");
    expect(cash.tickets_sold).toBe(5 * 3 + (2 + 4 + 6 + 8 + 10));

    // Live and nearly sold out.
    const macbook = get("macbook-pro-14-m5");
    expect(macbook.status).toBe("live");
    expect(macbook.total_tickets - macbook.tickets_sold).toBeLessThanOrEqual(0.05 * macbook.total_tickets);

    // Sold out before its close, waiting for its draw, with a postal entry after the sell-out.
    const ps5 = get("playstation-5-pro");
    expect(ps5.status).toBe("sold_out");
    expect(ps5.tickets_sold).toBe(ps5.total_tickets);
    expect(ps5.draw).toBeNull();
    expect(time(ps5.closes_at)).toBeGreaterThan(now);
    expect(time(ps5.draw_at)).toBeGreaterThan(now);
    expect(ps5.postal_tickets).toBe(ps5.postal_tickets_per_entry);
    expect(ps5.entry_list_open).toBe(true);

    // Online sales closed, postal deadline ahead: the postal window.
    const switch2 = get("nintendo-switch-2");
    expect(switch2.status).toBe("live");
    expect(time(switch2.closes_at)).toBeLessThan(now);
    expect(time(switch2.postal_deadline)).toBeGreaterThan(now);
    expect(switch2.draw).toBeNull();
    expect(switch2.entry_list_open).toBe(true);
    expect(switch2.postal_entries).toBe(2);

    // Drawn at its draw time, with postal tickets.
    const drone = get("dji-mini-5-pro");
    expect(drone.status).toBe("drawn");
    expect(drone.draw?.algorithm).toBe("labcash-draw-v2");
    expect(drone.postal_entries).toBe(2);
    expect(drone.postal_tickets).toBeGreaterThan(0);
    expect(time(drone.draw_at)).toBeLessThan(now);

    // Published, opening later.
    const headphones = get("sony-wh-1000xm6");
    expect(headphones.status).toBe("live");
    expect(time(headphones.opens_at)).toBeGreaterThan(now);

    // Closed at its draw time with no tickets; cancelled with refunds.
    const deck = get("steam-deck-oled");
    expect(deck).toMatchObject({ status: "closed", tickets_sold: 0, postal_tickets: 0, draw: null });
    expect(get("apple-watch-ultra-3").status).toBe("cancelled");

    const drafts = await db().sql("select 1 from public.competitions where status = 'draft'");
    expect(drafts.length).toBeGreaterThan(0);

    for (const c of bySlug.values()) {
      expect(time(c.opens_at), c.slug).toBeLessThan(time(c.closes_at));
      expect(time(c.closes_at), c.slug).toBeLessThanOrEqual(time(c.postal_deadline));
      expect(time(c.postal_deadline), c.slug).toBeLessThanOrEqual(time(c.draw_at));
      for (const image of c.images) expect(existsSync(path.join(process.cwd(), "public", image)), image).toBe(true);
    }
    expect(await db().ledgerMismatches()).toEqual([]);
  });

  it("postal entries get stamp-parity tickets numbered after the online pool", async () => {
    const bySlug = await competitions();
    // A £0.87 stamp: 1 ticket at 99p and £1, 2 at 50p.
    expect(bySlug.get("iphone-17-pro-max")!.postal_tickets_per_entry).toBe(1);
    expect(bySlug.get("dji-mini-5-pro")!.postal_tickets_per_entry).toBe(1);
    expect(bySlug.get("playstation-5-pro")!.postal_tickets_per_entry).toBe(2);
    expect(bySlug.get("nintendo-switch-2")!.postal_tickets).toBe(4);

    for (const slug of ["dji-mini-5-pro", "nintendo-switch-2", "playstation-5-pro"]) {
      const c = bySlug.get(slug)!;
      const list = await db().call<EntryList>(anon, "get_entry_list", { p_slug: slug, p_limit: 200 });
      expect(list.has_after).toBe(false);
      expect(list.ticket_count).toBe(c.tickets_sold + c.postal_tickets);
      const postal = list.rows.filter((r) => r.route === "postal");
      expect(postal.map((r) => r.number)).toEqual(
        Array.from({ length: c.postal_tickets }, (_, i) => c.total_tickets + 1 + i),
      );
      expect(postal.every((r) => r.entrant === "Postal entry" && r.town === null)).toBe(true);
      expect(list.rows.filter((r) => r.route === "online").map((r) => r.number)).toEqual(
        Array.from({ length: c.tickets_sold }, (_, i) => i + 1),
      );
    }

    // Isla chose initials only: no surname initial form, no town.
    const drone = await db().call<EntryList>(anon, "get_entry_list", { p_slug: "dji-mini-5-pro", p_limit: 200 });
    expect(drone.rows.some((r) => r.entrant === "I. M." && r.town === null)).toBe(true);
    expect(drone.rows.some((r) => r.entrant === "Oliver B." && r.town === "Leeds")).toBe(true);
  });

  it("every seeded draw verifies from its published inputs and its ticket-list CSV", async () => {
    const winners = await db().call<Array<{ draw_id: string; slug: string }>>(anon, "list_winners");
    expect(winners.length).toBeGreaterThanOrEqual(1);
    for (const w of winners) {
      const draw = await db().call<PublishedDraw>(anon, "get_draw", { p_draw_id: w.draw_id });
      const csv = await db().ticketListCsv(w.slug);
      expect(bytesToHex(await sha256(csv))).toBe(draw.ticket_list_hash);
      const result = await verifyDraw(draw, { ticketList: csv });
      expect(result.ok, JSON.stringify(result.checks)).toBe(true);
    }
  });

  it("a live competition with instant wins partly won, and a drawn one whose instant wins verify", async () => {
    const bySlug = await competitions();
    const live = await db().call<PublishedInstantWins>(anon, "get_instant_wins", { p_slug: "instant-win-bundle" });
    expect(bySlug.get("instant-win-bundle")?.status).toBe("live");
    expect(live.wins.length).toBeGreaterThanOrEqual(3);
    expect(live.wins.length).toBeLessThan(12);
    expect(live).toMatchObject({ seed_hex: null, numbers: null });

    const weekend = bySlug.get("instant-win-weekend");
    expect(weekend?.status).toBe("drawn");
    const drawn = await db().call<PublishedInstantWins>(anon, "get_instant_wins", { p_slug: "instant-win-weekend" });
    expect(drawn.wins).toHaveLength(5);
    const [{ id }] = await db().sql<{ id: string }>(
      "select id from public.competitions where slug = 'instant-win-weekend'",
    );
    const checks = await verifyInstantWins(id, drawn);
    expect(checks).toHaveLength(7);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
  });
});
