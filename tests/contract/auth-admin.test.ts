import { describe, expect, it } from "vitest";
import {
  adminClient,
  birthDateYearsAgo,
  client,
  raw,
  SECRET_KEY,
  signIn,
  STRONG_PASSWORD,
  uniqueEmail,
} from "./helpers";
import { contractServer } from "./support/server";

const contract = contractServer();

describe("admin users API (secret key)", () => {
  it("lists users with GoTrue's pagination", async () => {
    const admin = adminClient(contract.server);
    const all = await admin.auth.admin.listUsers();
    expect(all.error).toBeNull();
    const emails = all.data.users.map((u) => u.email);
    expect(emails).toEqual(
      expect.arrayContaining(["superadmin@labcash.test", "player@labcash.test", "pending@labcash.test"]),
    );

    const page = await admin.auth.admin.listUsers({ page: 1, perPage: 2 });
    expect(page.error).toBeNull();
    expect(page.data.users).toHaveLength(2);
    const paged = page.data as unknown as { total: number; nextPage: number | null; lastPage: number };
    expect(paged.total).toBe(all.data.users.length);
    expect(paged.nextPage).toBe(2);
    expect(paged.lastPage).toBe(Math.ceil(all.data.users.length / 2));
  });

  it("creates, reads, updates and deletes a user", async () => {
    const admin = adminClient(contract.server);
    const email = uniqueEmail("admin-made");
    const created = await admin.auth.admin.createUser({
      email,
      password: STRONG_PASSWORD,
      email_confirm: true,
      user_metadata: { name: "Made By Admin", date_of_birth: birthDateYearsAgo(30) },
    });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect(created.data.user!.email_confirmed_at).toBeTruthy();

    // The trigger made the profile, and the user can sign in at once.
    const { rows } = await contract.server.db.query("select name from public.profiles where id = $1", [id]);
    expect(rows).toEqual([{ name: "Made By Admin" }]);
    await signIn(contract.server, email, STRONG_PASSWORD);

    const fetched = await admin.auth.admin.getUserById(id);
    expect(fetched.data.user?.email).toBe(email);

    const updated = await admin.auth.admin.updateUserById(id, {
      user_metadata: { team: "blue" },
      app_metadata: { tier: "gold" },
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ name: "Made By Admin", team: "blue" });
    expect(updated.data.user?.app_metadata).toMatchObject({ provider: "email", tier: "gold" });

    const banned = await admin.auth.admin.updateUserById(id, { ban_duration: "24h" });
    expect(banned.error).toBeNull();
    const refused = await client(contract.server).auth.signInWithPassword({ email, password: STRONG_PASSWORD });
    expect(refused.error?.code).toBe("user_banned");

    const deleted = await admin.auth.admin.deleteUser(id);
    expect(deleted.error).toBeNull();
    const gone = await admin.auth.admin.getUserById(id);
    expect(gone.error?.status).toBe(404);
    expect(gone.error?.code).toBe("user_not_found");
    expect((await contract.server.db.query("select 1 from public.profiles where id = $1", [id])).rows).toHaveLength(0);
  });

  it("refuses a duplicate address and a weak password", async () => {
    const admin = adminClient(contract.server);
    const dup = await admin.auth.admin.createUser({ email: "player@labcash.test", password: STRONG_PASSWORD });
    expect(dup.error?.code).toBe("email_exists");
    expect(dup.error?.status).toBe(422);
    const weak = await admin.auth.admin.createUser({ email: uniqueEmail(), password: "weak" });
    expect(weak.error?.code).toBe("weak_password");
  });

  it("answers a non-UUID id as GoTrue does", async () => {
    const res = await raw(contract.server, "/auth/v1/admin/users/not-a-uuid", {
      key: SECRET_KEY,
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      code: 404,
      error_code: "validation_failed",
      msg: "user_id must be an UUID",
    });
  });
});

describe("admin users API without the secret key", () => {
  it("refuses the publishable key", async () => {
    const { data, error } = await client(contract.server).auth.admin.listUsers();
    expect(data.users).toEqual([]);
    expect(error?.status).toBe(403);
    expect(error?.code).toBe("not_admin");
    const create = await client(contract.server).auth.admin.createUser({
      email: uniqueEmail(),
      password: STRONG_PASSWORD,
    });
    expect(create.error?.code).toBe("not_admin");
  });

  it("refuses a signed-in admin's own token (admin API is for the server only)", async () => {
    const { session } = await signIn(contract.server, "superadmin@labcash.test");
    const res = await raw(contract.server, "/auth/v1/admin/users", {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(res.status).toBe(403);
  });
});
