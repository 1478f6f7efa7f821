import type { Competition } from "@/lib/data/competitions";

// A competition as the public list answers it, for the tests of what the pages make of one.

/** The tests' "now". */
export const NOW = Date.parse("2026-11-23T12:00:00Z");
/** An hour in milliseconds. */
export const HOUR = 3_600_000;
/** The moment `offsetHours` hours from NOW, as the database writes it. */
export const at = (offsetHours: number) => new Date(NOW + offsetHours * HOUR).toISOString();

/**
 * A live competition: opened an hour ago; online sales close in an hour; letters until two days later; drawn a day
 * after that. `changes` go over it.
 */
export function liveCompetition(changes: Partial<Competition> = {}): Competition {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    slug: "bike",
    title: "A bike",
    summary: "",
    description: "",
    prize_description: "A bike",
    prize_value: 500,
    images: [],
    ticket_price: 1,
    total_tickets: 100,
    tickets_sold: 10,
    tickets_left: 90,
    max_tickets_per_user: 10,
    ticket_numbering: "in_order",
    opens_at: at(-1),
    closes_at: at(1),
    postal_deadline: at(49),
    draw_at: at(73),
    cash_alternative: null,
    postal_entries: 0,
    postal_tickets: 0,
    postal_tickets_per_entry: 1,
    stamp_price: 0.87,
    entry_list_open: false,
    status: "live",
    is_open: true,
    skill_question: null,
    skill_options: null,
    seed_commitment: null,
    external_randomness: null,
    published_at: null,
    closed_at: null,
    cancelled_at: null,
    cancel_reason: null,
    draw: null,
    ...changes,
  };
}
