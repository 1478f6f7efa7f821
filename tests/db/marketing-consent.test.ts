// Marketing consent (PECR, code of practice 1.11): no consent unless the sign-up box is
// ticked, every choice recorded with its time, wording and source, existing accounts set to not consented
// by the migration, kept apart from the notification preference (email_notifications, on by default), the admin marketing segment honouring it, and the one-time unsubscribe link of each
// marketing mail, which works signed out through the server only. Real PGlite.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import nodemailer, { type SendMailOptions } from "nodemailer";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { beforeAll, describe, expect, it } from "vitest";
import { deliverQueuedMail, nodemailerTransport, type RpcClient } from "@/lib/mail/adapter";
import { MARKETING_CONSENT_WORDING } from "@/lib/validation/auth";
import { shimFile } from "@labcash/embedded-supabase/db";
import { migrationsDir } from "@/supabase/embedded";
import { anon, asUser, dbPerFile, service, type Caller } from "./support";

const db = dbPerFile();

type Consent = { given: boolean; at: string | null; wording: string | null; source: string | null };

const consentOf = (id: string) => db().call<Consent>(asUser(id), "get_my_marketing_consent");
const history = (id: string) =>
  db().sql<{ given: boolean; wording: string; source: string; created_at: Date }>(
    "select given, wording, source, created_at from public.marketing_consents where user_id = $1 order by id",
    [id],
  );

let admin: string;
let competition: string;

beforeAll(async () => {
  admin = await db().createAdmin();
  competition = await db().createCompetition(admin);
});

describe("sign-up", () => {
  it("records no consent when the box was not ticked, with the time and the wording", async () => {
    const id = await db().createUser({ meta: { name: "Una Unticked", marketing_consent: false } });
    expect(await consentOf(id)).toMatchObject({ given: false, wording: MARKETING_CONSENT_WORDING, source: "sign_up" });
    const [row] = await history(id);
    expect(row).toMatchObject({ given: false, wording: MARKETING_CONSENT_WORDING, source: "sign_up" });
    expect(Math.abs(row.created_at.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("records consent when the box was ticked (JSON true only), and the wording is the form's", async () => {
    const ticked = await db().createUser({ meta: { name: "Tia Ticked", marketing_consent: true } });
    expect(await consentOf(ticked)).toMatchObject({
      given: true,
      wording: MARKETING_CONSENT_WORDING,
      source: "sign_up",
    });
    const text = await db().createUser({ meta: { name: "Ted Text", marketing_consent: "yes" } });
    expect((await consentOf(text)).given).toBe(false);
    const [{ wording }] = await db().sql<{ wording: string }>("select private.marketing_consent_wording() as wording");
    expect(wording).toBe(MARKETING_CONSENT_WORDING);
  });

  it("a user made without the form (admin API, script) was not asked: no consent, notifications on", async () => {
    const id = await db().createUser({ meta: { name: "Sam Script" } });
    expect(await consentOf(id)).toMatchObject({ given: false, source: "not_asked" });
    expect(
      await db().sql("select email_notifications, marketing_consent from public.profiles where id = $1", [id]),
    ).toEqual([{ email_notifications: true, marketing_consent: false }]);
  });
});

describe("the player's choice", () => {
  it("gives and withdraws in one call each, every change recorded; a notification choice records nothing", async () => {
    const id = await db().createPlayer({ name: "Cho Chooser" });
    expect(await db().call(asUser(id), "set_my_marketing_consent", { p_given: true })).toMatchObject({
      given: true,
      source: "profile",
      wording: MARKETING_CONSENT_WORDING,
    });
    await db().call(asUser(id), "update_my_profile", { p_name: "Cho Chooser", p_email_notifications: false });
    expect(await consentOf(id)).toMatchObject({ given: true });
    expect(await db().call(asUser(id), "set_my_marketing_consent", { p_given: false })).toMatchObject({ given: false });
    expect((await history(id)).map((r) => [r.given, r.source])).toEqual([
      [false, "not_asked"],
      [true, "profile"],
      [false, "profile"],
    ]);
    expect((await db().rpc(asUser(id), "set_my_marketing_consent", { p_given: null })).error?.hint).toBe(
      "invalid_input",
    );
    expect((await db().rpc(anon, "set_my_marketing_consent", { p_given: true })).error?.code).toBe("42501");
  });
});

describe("admin marketing", () => {
  it("a never-asked entrant is held back from a marketing send; one who ticked the box gets it", async () => {
    const silent = await db().createUser({ name: "Nev Never", approved: true, credits: 5 });
    const keen = await db().createUser({
      meta: { name: "Kim Keen", marketing_consent: true },
      approved: true,
      credits: 5,
    });
    const comp = await db().createCompetition(admin);
    for (const id of [silent, keen])
      await db().call(asUser(id), "enter_competition", { p_competition_id: comp, p_quantity: 1, p_answer: "4" });
    const compose = {
      p_kind: "marketing",
      p_segment: "competition_entrants",
      p_competition_id: comp,
      p_subject: "New competitions",
      p_body: "Three new competitions open on Friday.",
    };
    expect(await db().call(asUser(admin), "admin_preview_mail", compose)).toMatchObject({
      members: 2,
      recipients: 1,
      held_back: { no_consent: 1 },
    });
    const sent = await db().call<{ id: string }>(asUser(admin), "admin_send_mail", { ...compose, p_request_id: null });
    const rows = await db().sql<{ to_user: string }>("select to_user from public.mail_outbox where campaign_id = $1", [
      sent.id,
    ]);
    expect(rows.map((r) => r.to_user)).toEqual([keen]);
  });
});

describe("the unsubscribe link", () => {
  async function marketingMailTo(name: string) {
    const id = await db().createUser({ meta: { name, marketing_consent: true }, approved: true, credits: 2 });
    await db().call(asUser(id), "enter_competition", { p_competition_id: competition, p_quantity: 1, p_answer: "4" });
    const campaign = await db().call<{ id: string }>(asUser(admin), "admin_send_mail", {
      p_kind: "marketing",
      p_segment: "competition_entrants",
      p_competition_id: competition,
      p_subject: `News for ${name}`,
      p_body: "Three new competitions open on Friday.",
      p_request_id: null,
    });
    const [mail] = await db().sql<{ body_text: string; list_unsubscribe: string }>(
      "select body_text, list_unsubscribe from public.mail_outbox where campaign_id = $1 and to_user = $2",
      [campaign.id, id],
    );
    const token = /\/unsubscribe\?token=([0-9a-f]{64})\n/.exec(mail.body_text)?.[1];
    return { id, mail, token: token! };
  }

  it("is in the mail and its List-Unsubscribe address; works once, signed out, through the server", async () => {
    const { id, mail, token } = await marketingMailTo("Una Subscribe");
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(mail.list_unsubscribe).toBe(`http://localhost:3000/api/unsubscribe?token=${token}`);
    // Only the hash is kept.
    const [{ stored }] = await db().sql<{ stored: number }>(
      "select count(*)::int as stored from public.marketing_unsubscribe_tokens where token_hash = extensions.digest($1, 'sha256')",
      [token],
    );
    expect(stored).toBe(1);

    expect(await db().call(service, "unsubscribe_marketing", { p_token: token })).toEqual({ unsubscribed: true });
    expect(await consentOf(id)).toMatchObject({ given: false, source: "unsubscribe_link" });
    const [{ action }] = await db().sql<{ action: string }>(
      "select action from public.activity_log where subject_id = $1 order by id desc limit 1",
      [id],
    );
    expect(action).toBe("marketing.unsubscribed");

    const again = await db().rpc(service, "unsubscribe_marketing", { p_token: token });
    expect(again.error).toMatchObject({ hint: "unsubscribe_link_used" });
  });

  it("refuses a wrong or malformed token and changes nothing", async () => {
    const { id, token } = await marketingMailTo("Wes Wrong");
    const wrong = token.replace(/^./, (c) => (c === "a" ? "b" : "a"));
    for (const bad of [wrong, "", "x".repeat(64), token.toUpperCase(), `${token}0`]) {
      const res = await db().rpc(service, "unsubscribe_marketing", { p_token: bad });
      expect(res.error, bad).toMatchObject({ hint: "unsubscribe_link_invalid" });
    }
    expect((await consentOf(id)).given).toBe(true);
  });

  it("only the server may call it: a visitor and a player are refused", async () => {
    const { id, token } = await marketingMailTo("Pia Private");
    for (const caller of [anon, asUser(id)] as Caller[]) {
      const res = await db().rpc(caller, "unsubscribe_marketing", { p_token: token });
      expect(res.error?.code).toBe("42501");
    }
    expect((await consentOf(id)).given).toBe(true);
  });

  it("a service notice carries no unsubscribe link and needs no consent", async () => {
    const never = await db().createUser({ name: "Sol Service", approved: true, credits: 2 });
    await db().call(asUser(never), "enter_competition", {
      p_competition_id: competition,
      p_quantity: 1,
      p_answer: "4",
    });
    const campaign = await db().call<{ id: string }>(asUser(admin), "admin_send_mail", {
      p_kind: "service",
      p_segment: "competition_entrants",
      p_competition_id: competition,
      p_subject: "The draw moved",
      p_body: "The draw is now on Saturday at noon.",
      p_request_id: null,
    });
    const [mail] = await db().sql<{ body_text: string; list_unsubscribe: string | null }>(
      "select body_text, list_unsubscribe from public.mail_outbox where campaign_id = $1 and to_user = $2",
      [campaign.id, never],
    );
    expect(mail.list_unsubscribe).toBeNull();
    expect(mail.body_text).not.toContain("unsubscribe");
  });
});

describe("delivery", () => {
  it("a marketing mail goes out with List-Unsubscribe and List-Unsubscribe-Post (RFC 8058); a service mail without", async () => {
    // Real nodemailer, writing each message to a buffer instead of to an SMTP server; the buffers are kept.
    const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    const raw: string[] = [];
    const sendMail = transporter.sendMail.bind(transporter);
    transporter.sendMail = (async (options: SendMailOptions) => {
      const info = await sendMail(options);
      raw.push(info.message.toString());
      return info;
    }) as typeof transporter.sendMail;
    const client: RpcClient = { rpc: (fn, args) => db().rpc(service, fn, args) };
    const report = await deliverQueuedMail(client, {
      transport: nodemailerTransport(transporter, "LabCash <no-reply@labcash.test>"),
      limit: 100,
      batches: 100,
    });
    expect(report).toMatchObject({ transport: "smtp", failed: 0 });
    const unfold = (m: string) => m.replace(/\n[ \t]+/g, " ");
    const marketing = unfold(raw.find((m) => m.includes("Subject: News for Una Subscribe")) ?? "");
    expect(marketing).toMatch(/^List-Unsubscribe: <http:\/\/localhost:3000\/api\/unsubscribe\?token=[0-9a-f]{64}>$/m);
    expect(marketing).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const notice = unfold(raw.find((m) => m.includes("Subject: The draw moved")) ?? "");
    expect(notice).toContain("To: ");
    expect(notice).not.toMatch(/^List-Unsubscribe/m);
  });
});

describe("the migrations", () => {
  it("set a never-asked account to not consented, then part consent from notifications keeping every choice", async () => {
    const files = (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort();
    const cut = files.indexOf("20261127110000_marketing_consent.sql");
    const parting = files.indexOf("20261207061500_notification_preference_and_marketing_consent.sql");
    expect(cut).toBeGreaterThan(0);
    expect(parting).toBeGreaterThan(cut);
    const pg = await PGlite.create({ extensions: { pgcrypto } });
    try {
      await pg.exec(await readFile(shimFile, "utf8"));
      const apply = async (list: string[]) => {
        for (const f of list) await pg.exec(await readFile(path.join(migrationsDir, f), "utf8"));
      };
      await apply(files.slice(0, cut));
      const {
        rows: [{ id }],
      } = await pg.query<{ id: string }>(
        "insert into auth.users (email, raw_user_meta_data) values ('old@labcash.test', $1) returning id",
        [JSON.stringify({ name: "Olive Old", date_of_birth: "1990-01-01" })],
      );
      const before = await pg.query<{ email_notifications: boolean }>(
        "select email_notifications from public.profiles where id = $1",
        [id],
      );
      expect(before.rows[0].email_notifications).toBe(true);

      await apply(files.slice(cut, parting));
      const flags = async (user: string) =>
        (await pg.query("select * from public.profiles where id = $1", [user])).rows[0] as Record<string, unknown>;
      expect(await flags(id)).toMatchObject({ email_notifications: false });
      const recorded = async () =>
        (
          await pg.query<{ user_id: string; given: boolean; source: string; wording: string }>(
            "select user_id, given, source, wording from public.marketing_consents order by id",
          )
        ).rows;
      expect(await recorded()).toEqual([
        { user_id: id, given: false, source: "not_asked", wording: expect.stringMatching(/^Never asked/) },
      ]);

      // Before the two meanings parted: one player gave consent at sign-up, one gave it and withdrew it.
      const signUp = async (email: string, name: string) => {
        const meta = { name, date_of_birth: "1990-01-01", marketing_consent: true };
        const { rows } = await pg.query<{ id: string }>(
          "insert into auth.users (email, raw_user_meta_data) values ($1, $2) returning id",
          [email, JSON.stringify(meta)],
        );
        return rows[0].id;
      };
      const keen = await signUp("keen@labcash.test", "Kim Keen");
      const changed = await signUp("changed@labcash.test", "Cam Changed");
      await pg.query("select private.record_marketing_consent($1, false, 'profile')", [changed]);
      expect(await flags(keen)).toMatchObject({ email_notifications: true });
      const history = await recorded();

      await apply(files.slice(parting));
      expect(await flags(id)).toMatchObject({ email_notifications: true, marketing_consent: false });
      expect(await flags(keen)).toMatchObject({ email_notifications: true, marketing_consent: true });
      expect(await flags(changed)).toMatchObject({ email_notifications: true, marketing_consent: false });
      expect(await recorded()).toEqual(history);
    } finally {
      await pg.close();
    }
  });
});
