// Wrong authenticator codes, as the auth server's MFA verification attempt hook counts them
// (private.hook_mfa_verification_attempt): the visitor who typed them waits, never the owner elsewhere; the wait
// doubles and ends; a factor's day of 50 wrong codes bars the networks that guessed, until the day has passed;
// the owner is e-mailed once a day at most. Visitors are keyed from the raw address hosted GoTrue sends (an IPv6
// /64, a /48 past the day's ceiling); no address records and refuses nothing. Time is moved by ageing the
// recorded codes, as if it had passed.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { pg15ClusterForFile } from "./pg15";
import { dbPerFile } from "./support";

const db = dbPerFile();
const cluster = pg15ClusterForFile(2);

let owner: string;
beforeAll(async () => {
  owner = await db().createPlayer();
});

interface Decision {
  decision: string;
  message?: string;
}

/** One code checked by the auth server: the hook called as GoTrue calls it, as supabase_auth_admin. */
async function attempt(factor: string, visitor: string | undefined, valid: boolean): Promise<Decision> {
  return db().pg.transaction(async (tx) => {
    await tx.query("set local role supabase_auth_admin");
    const { rows } = await tx.query<{ output: Decision }>(
      "select private.hook_mfa_verification_attempt($1::jsonb) as output",
      [
        {
          metadata: { ip_address: visitor, name: "mfa-verification" },
          user_id: owner,
          factor_id: factor,
          factor_type: "totp",
          valid,
        },
      ],
    );
    return rows[0].output;
  });
}

/** Moves this factor's recorded wrong codes (and its owner's alert mail) `seconds` into the past. */
async function age(factor: string, seconds: number) {
  await db().sql(
    "update private.two_step_wrong_codes set typed_at = typed_at - make_interval(secs => $2) where factor_id = $1",
    [factor, seconds],
  );
  await db().sql(
    "update public.mail_outbox set created_at = created_at - make_interval(secs => $2) where to_user = $1 and kind = 'two_step_wrong_codes'",
    [owner, seconds],
  );
}

const CONTINUE = { decision: "continue" };

describe("one visitor's wrong codes", () => {
  it("hold back that visitor from the tenth, for 30 s doubling to 15 minutes, and never the owner elsewhere", async () => {
    const factor = randomUUID();
    for (let i = 0; i < 9; i++) expect(await attempt(factor, "203.0.113.1", false)).toEqual(CONTINUE);
    // The owner's own typos: nine wrong codes, then the right one still passes (a refusal signs out everywhere).
    expect(await attempt(factor, "203.0.113.1", true)).toEqual(CONTINUE);
    for (let i = 0; i < 10; i++) expect(await attempt(factor, "203.0.113.1", false)).toEqual(CONTINUE);
    expect(await attempt(factor, "203.0.113.1", true)).toEqual({
      decision: "reject",
      message: "Too many wrong codes from this address. Try again in a minute.",
    });
    expect(await attempt(factor, "203.0.113.2", true)).toEqual(CONTINUE);
    await age(factor, 31);
    // The wait is over; a sixth wrong code doubles it to a minute.
    await attempt(factor, "203.0.113.1", false);
    await age(factor, 31);
    expect((await attempt(factor, "203.0.113.1", true)).decision).toBe("reject");
    for (let i = 0; i < 10; i++) await attempt(factor, "203.0.113.1", false);
    expect(await attempt(factor, "203.0.113.1", true)).toEqual({
      decision: "reject",
      message: "Too many wrong codes from this address. Try again in 15 minutes.",
    });
    await age(factor, 15 * 60 + 1);
    expect(await attempt(factor, "203.0.113.1", true)).toEqual(CONTINUE);
    // The right code ended that visitor's run.
    const [{ n }] = await db().sql<{ n: number }>(
      "select count(*)::int as n from private.two_step_wrong_codes where factor_id = $1 and visitor = '203.0.113.1'",
      [factor],
    );
    expect(n).toBe(0);
  });

  it("are forgotten after an hour without more", async () => {
    const factor = randomUUID();
    for (let i = 0; i < 12; i++) await attempt(factor, "203.0.113.3", false);
    expect((await attempt(factor, "203.0.113.3", true)).decision).toBe("reject");
    await age(factor, 3601);
    expect(await attempt(factor, "203.0.113.3", true)).toEqual(CONTINUE);
  });
});

describe("a factor's day", () => {
  it("takes 50 wrong codes from everyone; then an address with two that day waits for the day to pass", async () => {
    const factor = randomUUID();
    for (let i = 0; i < 49; i++) await attempt(factor, `198.51.100.${i % 25}`, false);
    // 49: not yet; an address with two wrong codes still passes with the right one.
    expect(await attempt(factor, "198.51.100.24", true)).toEqual(CONTINUE);
    for (let i = 0; i < 3; i++) await attempt(factor, `198.51.100.${i}`, false);
    expect(await attempt(factor, "198.51.100.0", true)).toEqual({
      decision: "reject",
      message: "Too many wrong codes from this address. Try again in 24 hours.",
    });
    // A clean address, or one with a single typo, still passes.
    expect(await attempt(factor, "198.51.100.200", true)).toEqual(CONTINUE);
    await attempt(factor, "198.51.100.201", false);
    expect(await attempt(factor, "198.51.100.201", true)).toEqual(CONTINUE);
    // A day later the ceiling is spent no more.
    await age(factor, 86_401);
    expect(await attempt(factor, "198.51.100.0", true)).toEqual(CONTINUE);
    // Codes older than a day are pruned as new ones arrive.
    await attempt(factor, "198.51.100.9", false);
    const [{ n }] = await db().sql<{ n: number }>(
      "select count(*)::int as n from private.two_step_wrong_codes where factor_id = $1",
      [factor],
    );
    expect(n).toBe(1);
  });
});

describe("the owner's alert", () => {
  it("goes at the fifth wrong code within an hour, once a day at most", async () => {
    const factor = randomUUID();
    const alerts = async () =>
      (
        await db().sql<{ n: number }>(
          "select count(*)::int as n from public.mail_outbox where to_user = $1 and kind = 'two_step_wrong_codes'",
          [owner],
        )
      )[0].n;
    const before = await alerts();
    for (let i = 0; i < 4; i++) await attempt(factor, `192.0.2.${i}`, false);
    expect(await alerts()).toBe(before);
    await attempt(factor, "192.0.2.9", false);
    expect(await alerts()).toBe(before + 1);
    for (let i = 0; i < 10; i++) await attempt(factor, `192.0.2.${20 + i}`, false);
    expect(await alerts()).toBe(before + 1);
    await age(factor, 86_401);
    for (let i = 0; i < 5; i++) await attempt(factor, "192.0.2.50", false);
    expect(await alerts()).toBe(before + 2);
  });

  it("is not for the API roles to trigger: only the auth server's role may call the hook", async () => {
    for (const role of ["anon", "authenticated", "service_role"]) {
      const refused = await db()
        .pg.transaction(async (tx) => {
          await tx.query(`set local role ${role}`);
          await tx.query("select private.hook_mfa_verification_attempt('{}'::jsonb)");
        })
        .then(
          () => null,
          (e: { code?: string }) => e.code,
        );
      expect(refused).toBe("42501");
    }
  });
});

describe("visitors as hosted GoTrue names them (the raw client address)", () => {
  it("are one per /64, whatever the address and its spelling", async () => {
    const factor = randomUUID();
    for (let i = 0; i < 10; i++) await attempt(factor, `2001:db8:1:2::${(i + 1).toString(16)}`, false);
    // Another address and spelling of the same /64 waits; another /64 does not.
    expect((await attempt(factor, "2001:0DB8:0001:0002:0:0:0:ffff", true)).decision).toBe("reject");
    expect(await attempt(factor, "2001:db8:1:3::1", true)).toEqual(CONTINUE);
    const keys = await db().sql<{ visitor: string }>(
      "select distinct visitor from private.two_step_wrong_codes where factor_id = $1",
      [factor],
    );
    expect(keys).toEqual([{ visitor: "2001:db8:1:2::" }]);
    // An IPv4-mapped address is its IPv4 address.
    for (let i = 0; i < 10; i++) await attempt(factor, "::ffff:198.51.100.77", false);
    expect((await attempt(factor, "198.51.100.77", true)).decision).toBe("reject");
  });

  it("without an address (missing, empty or not an address) record nothing and refuse nothing", async () => {
    const factor = randomUUID();
    for (const visitor of [undefined, "", "unknown"]) {
      for (let i = 0; i < 12; i++) expect(await attempt(factor, visitor, false)).toEqual(CONTINUE);
      expect(await attempt(factor, visitor, true)).toEqual(CONTINUE);
    }
    const [{ n }] = await db().sql<{ n: number }>(
      "select count(*)::int as n from private.two_step_wrong_codes where factor_id = $1",
      [factor],
    );
    expect(n).toBe(0);
  });

  it("past the day's ceiling, give one /48 two guesses in all, not two per /64", async () => {
    const factor = randomUUID();
    for (let i = 0; i < 50; i++) await attempt(factor, `198.51.100.${i}`, false);
    // A fresh /64 mistypes once and passes (its right code ends its run); then its /48's other /64s share one
    // count: two wrong codes between them bar a third /64 of it.
    await attempt(factor, "2001:db8:aaaa:1::1", false);
    expect(await attempt(factor, "2001:db8:aaaa:1::1", true)).toEqual(CONTINUE);
    await attempt(factor, "2001:db8:aaaa:2::1", false);
    await attempt(factor, "2001:db8:aaaa:3::1", false);
    expect((await attempt(factor, "2001:db8:aaaa:4::1", true)).decision).toBe("reject");
    // Another /48 is its own network.
    expect(await attempt(factor, "2001:db8:bbbb:1::1", true)).toEqual(CONTINUE);
  });
});

describe("on PostgreSQL 15", () => {
  it("keys GoTrue's raw addresses by /64 and records nothing without one", async () => {
    const client = await cluster.pool.connect();
    try {
      const {
        rows: [{ id: user }],
      } = await client.query<{ id: string }>(
        `insert into auth.users (email, raw_user_meta_data) values ($1, '{"date_of_birth":"1990-01-01"}') returning id`,
        [`two-step-${randomUUID()}@t.test`],
      );
      const factor = randomUUID();
      const hook = async (ip: string | undefined, valid: boolean) => {
        await client.query("begin; set local role supabase_auth_admin");
        try {
          const { rows } = await client.query<{ output: Decision }>(
            "select private.hook_mfa_verification_attempt($1::jsonb) as output",
            [{ metadata: { ip_address: ip }, user_id: user, factor_id: factor, factor_type: "totp", valid }],
          );
          return rows[0].output.decision;
        } finally {
          await client.query("commit");
        }
      };
      for (let i = 1; i <= 10; i++) expect(await hook(`2001:db8:1:2::${i.toString(16)}`, false)).toBe("continue");
      expect(await hook("2001:0db8:0001:0002::ffff", true)).toBe("reject");
      expect(await hook("2001:db8:1:3::1", true)).toBe("continue");
      for (let i = 0; i < 12; i++) expect(await hook(undefined, false)).toBe("continue");
      expect(await hook("unknown", true)).toBe("continue");
      const { rows } = await client.query<{ visitor: string; n: number }>(
        "select visitor, count(*)::int as n from private.two_step_wrong_codes where factor_id = $1 group by visitor",
        [factor],
      );
      expect(rows).toEqual([{ visitor: "2001:db8:1:2::", n: 10 }]);
    } finally {
      client.release();
    }
  });
});
