import { describe, expect, it } from "vitest";
import { nextUsersHref, parseUsersQuery, previousUsersHref, usersHref } from "@/lib/users/user-filters";

const CURSOR_1 = "1763900000.123456:0b7c1a4e-0000-4000-8000-000000000001";
const CURSOR_2 = "1763800000.000001:0b7c1a4e-0000-4000-8000-000000000002";

describe("the admin users list's URL", () => {
  it("reads the search and the filters the SQL accepts", () => {
    const { query, ignored } = parseUsersQuery({ q: " ann@x ", role: "admin", approval: "pending", kyc: "verified" });
    expect(query).toMatchObject({ search: "ann@x", role: "admin", approval: "pending", kyc: "verified", cursor: null });
    expect(ignored).toEqual([]);
  });

  it("drops a bad value with a note and keeps the rest", () => {
    const { query, ignored } = parseUsersQuery({
      q: "x".repeat(201),
      role: "owner",
      approval: "maybe",
      kyc: "gold",
      after: "1;drop",
    });
    expect(query).toMatchObject({ search: null, role: null, approval: null, kyc: null, cursor: null });
    expect(ignored).toHaveLength(5);
  });

  it("reads the flagged filter (flagged=yes) and keeps it in links; another value is dropped with a note", () => {
    const { query, ignored } = parseUsersQuery({ flagged: "yes", role: "user" });
    expect(query).toMatchObject({ flagged: true, role: "user" });
    expect(ignored).toEqual([]);
    expect(usersHref(query)).toBe("/admin/users?role=user&flagged=yes");
    const bad = parseUsersQuery({ flagged: "maybe" });
    expect(bad.query.flagged).toBe(false);
    expect(bad.ignored).toHaveLength(1);
  });

  it("pages forward and back with the keyset cursor, keeping the filter", () => {
    const first = parseUsersQuery({ q: "ann" }).query;
    const page2 = nextUsersHref(first, CURSOR_1)!;
    expect(page2).toBe(`/admin/users?q=ann&after=${encodeURIComponent(CURSOR_1)}`);
    expect(nextUsersHref(first, null)).toBeNull();
    expect(previousUsersHref(first)).toBeNull();

    const second = parseUsersQuery(Object.fromEntries(new URL(page2, "http://x").searchParams)).query;
    expect(second.cursor).toBe(CURSOR_1);
    expect(previousUsersHref(second)).toBe("/admin/users?q=ann");
    const page3 = nextUsersHref(second, CURSOR_2)!;
    const third = parseUsersQuery(Object.fromEntries(new URL(page3, "http://x").searchParams)).query;
    expect(third).toMatchObject({ cursor: CURSOR_2, trail: [CURSOR_1] });
    expect(previousUsersHref(third)).toBe(usersHref(third, { cursor: CURSOR_1, trail: [] }));
  });
});
