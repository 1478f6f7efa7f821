// The site's own count of e-mailed codes, by address: a few new codes an hour (ask_for_email_code), and five tries
// at the code outstanding (take_email_code_try), after which it is void until a new one has been sent
// (email_code_sent). All are the server's alone (the secret key), and count an address nobody uses exactly as one an
// account uses.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { anon, asUser, dbPerFile, service } from "./support";

const db = dbPerFile();
let player: string;

let nextAddress = 0;
const newAddress = () => `codes-${nextAddress++}@example.test`;

const ask = (email: string) => db().call<number>(service, "ask_for_email_code", { p_email: email });
const tryCode = (email: string) => db().call<number>(service, "take_email_code_try", { p_email: email });
const sent = (email: string) => db().call(service, "email_code_sent", { p_email: email });
/** What the site does for a code that goes: asks (counted), the auth server sends it, the site records it sent. */
const newCode = async (email: string) => {
  expect(await ask(email)).toBe(0);
  await sent(email);
};

beforeAll(async () => {
  player = await db().createPlayer();
});

describe("tries at an e-mailed code", () => {
  it("five, counted before the auth server checks them; then the code is void until a new one is sent", async () => {
    const email = newAddress();
    await newCode(email);
    const left = [];
    for (let i = 0; i < 5; i++) left.push(await tryCode(email));
    expect(left).toEqual([5, 4, 3, 2, 1]);
    expect(await tryCode(email)).toBe(0);
    expect(await tryCode(email)).toBe(0);
    // A new code starts with five again.
    await newCode(email);
    expect(await tryCode(email)).toBe(5);
  });

  it("a send the auth server refused leaves the code outstanding with the tries it had left", async () => {
    const email = newAddress();
    await newCode(email);
    for (let i = 0; i < 3; i++) await tryCode(email);
    // Asked for (and counted among the hour's five), but the auth server refused to send: email_code_sent is not called.
    expect(await ask(email)).toBe(0);
    expect(await tryCode(email)).toBe(2);
    expect(await tryCode(email)).toBe(1);
    expect(await ask(email)).toBe(0);
    expect(await tryCode(email)).toBe(0);
    // Only a code that went starts afresh.
    await sent(email);
    expect(await tryCode(email)).toBe(5);
  });

  it("a right code ends the count; another address's tries never touch this one's", async () => {
    const email = newAddress();
    const other = newAddress();
    await newCode(email);
    for (let i = 0; i < 4; i++) await tryCode(email);
    for (let i = 0; i < 6; i++) await tryCode(other);
    expect(await tryCode(other)).toBe(0);
    await db().call(service, "clear_email_code_tries", { p_email: email });
    expect(await tryCode(email)).toBe(5);
  });

  it("keys the address as the auth server matches it: trimmed, in any case", async () => {
    const email = newAddress();
    await newCode(email);
    for (let i = 0; i < 5; i++) await tryCode(i % 2 ? ` ${email.toUpperCase()} ` : email);
    expect(await tryCode(email)).toBe(0);
  });

  it("a code asked for over ten minutes ago has expired: a try now starts a count of its own", async () => {
    const email = newAddress();
    await newCode(email);
    for (let i = 0; i < 5; i++) await tryCode(email);
    await db().sql(
      "update private.email_code_tries set code_asked_at = now() - interval '11 minutes' where email = $1",
      [email],
    );
    expect(await tryCode(email)).toBe(5);
  });
});

describe("new e-mailed codes", () => {
  it("five an hour per address, whoever asks; then the seconds until the next may go", async () => {
    const email = newAddress();
    for (let i = 0; i < 5; i++) expect(await ask(email)).toBe(0);
    const wait = await ask(email);
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    // The refused ask gave the code no new tries.
    for (let i = 0; i < 5; i++) await tryCode(email);
    expect(await ask(email)).toBeGreaterThan(0);
    expect(await tryCode(email)).toBe(0);
    // Another address is free, and an ask over an hour old no longer counts.
    expect(await ask(newAddress())).toBe(0);
    await db().sql(
      "update private.email_code_requests set asked_at = asked_at - interval '1 hour' where email = $1 and asked_at = (select min(asked_at) from private.email_code_requests where email = $1)",
      [email],
    );
    expect(await ask(email)).toBe(0);
  });

  it("refuses what is not an address", async () => {
    for (const p_email of ["", "no-at-sign", "a@b c", null]) {
      expect((await db().rpc(service, "ask_for_email_code", { p_email })).error).toMatchObject({
        hint: "invalid_input",
      });
    }
  });
});

describe("who may count", () => {
  it("the server's secret key only: visitors and players may not read or spend another's tries", async () => {
    for (const caller of [anon, asUser(player)]) {
      for (const fn of ["ask_for_email_code", "email_code_sent", "take_email_code_try", "clear_email_code_tries"]) {
        const { error } = await db().rpc(caller, fn, { p_email: "player@labcash.test" });
        expect(error, `${fn} as ${caller.role}`).not.toBeNull();
      }
      for (const table of ["private.email_code_requests", "private.email_code_tries"]) {
        expect((await db().as(caller, `select * from ${table}`)).error).not.toBeNull();
      }
    }
  });
});

describe("the code's life", () => {
  it("is the ten minutes supabase/config.toml gives hosted projects", async () => {
    const config = readFileSync("supabase/config.toml", "utf8");
    const seconds = Number(/^otp_expiry = (\d+)$/m.exec(config)?.[1]);
    expect(Number(/^otp_length = (\d+)$/m.exec(config)?.[1])).toBe(8);
    const [{ life }] = await db().sql<{ life: number }>(
      "select extract(epoch from private.email_code_life())::int as life",
    );
    expect(life).toBe(seconds);
    expect(seconds).toBe(600);
  });
});

describe("e-mail requests past the thresholds", () => {
  const take = (visitor: string, kind: string, captchaPassed = false) =>
    db().rpc(service, "take_email_request", {
      p_visitor: visitor,
      p_kind: kind,
      p_captcha_passed: captchaPassed,
      p_per_visitor: 3,
      p_per_site: 20,
    });

  it("three a visitor an hour of each kind, then a CAPTCHA; other visitors and the other kind are not touched", async () => {
    const visitor = "203.0.113.70";
    for (let i = 0; i < 3; i++) expect((await take(visitor, "account")).error).toBeNull();
    expect((await take(visitor, "account")).error).toMatchObject({
      hint: "captcha_required",
      message: "Please confirm you are a person, then send the form again.",
    });
    // With the check passed the request goes on, and is counted.
    expect((await take(visitor, "account", true)).error).toBeNull();
    expect((await take(visitor, "signup")).error).toBeNull();
    expect((await take("203.0.113.71", "account")).error).toBeNull();
  });

  it("twenty for the whole site an hour, then every visitor needs the check until the hour has passed", async () => {
    await db().sql("delete from private.email_requests");
    for (let i = 0; i < 20; i++) expect((await take(`198.51.100.${100 + i}`, "signup")).error).toBeNull();
    expect((await take("198.51.100.200", "signup")).error).toMatchObject({ hint: "captcha_required" });
    expect((await take("198.51.100.200", "account")).error).toBeNull();
    await db().sql("update private.email_requests set asked_at = asked_at - interval '1 hour'");
    expect((await take("198.51.100.200", "signup")).error).toBeNull();
  });

  it("is the server's alone, and refuses what is not a visitor and a kind", async () => {
    expect(
      (
        await db().rpc(anon, "take_email_request", {
          p_visitor: "x",
          p_kind: "account",
          p_captcha_passed: true,
          p_per_visitor: 3,
          p_per_site: 20,
        })
      ).error,
    ).not.toBeNull();
    expect((await take("203.0.113.72", "other")).error).toMatchObject({ hint: "invalid_input" });
    expect((await db().as(asUser(player), "select * from private.email_requests")).error).not.toBeNull();
  });
});
