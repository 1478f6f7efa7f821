// Storage as hosted Storage serves it, through supabase-js's own storage client: the bucket API for the secret
// key (limits honoured by every write), signed download and upload URLs and their tokens, the authenticated read
// decided by the caller's policies, info, exists, move, copy, list-v2, user metadata, and the routing (a word
// after /object is a route, never a bucket; an unknown route is a 404).
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../src/db";
import { EMBEDDED_PUBLISHABLE_KEY, EMBEDDED_SECRET_KEY } from "../src/keys";
import { NO_RATE_LIMITS } from "../src/rate-limit";
import { startEmbeddedServer, type EmbeddedServer } from "../src/server";
import { client, PASSWORD, schema, uniqueEmail } from "./support";

let db: PGlite;
let server: EmbeddedServer;
let service: ReturnType<typeof client>;
let visitor: ReturnType<typeof client>;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const png = () => new Blob([PNG], { type: "image/png" });
let bucketCount = 0;
/** A fresh bucket made through the bucket API with the secret key (`owned-…` for the owners' policies below). */
async function newBucket(
  options: Parameters<typeof service.storage.createBucket>[1] = { public: false },
  prefix = "b",
) {
  bucketCount += 1;
  const id = `${prefix}-${Date.now().toString(36)}-${bucketCount}`;
  const made = await service.storage.createBucket(id, options);
  expect(made).toEqual({ data: { name: id }, error: null });
  return id;
}

async function signedIn() {
  const c = client(server.url);
  const { data, error } = await c.auth.signUp({ email: uniqueEmail(), password: PASSWORD });
  expect(error).toBeNull();
  return { client: c, id: data.user!.id };
}

/** A raw request to /storage/v1 with the secret key. */
function storageFetch(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("apikey", EMBEDDED_SECRET_KEY);
  headers.set("Authorization", `Bearer ${EMBEDDED_SECRET_KEY}`);
  return fetch(`${server.url}/storage/v1${path}`, { ...init, headers });
}

beforeAll(async () => {
  db = await openDatabase(schema);
  server = await startEmbeddedServer({ db, port: 0, rateLimits: NO_RATE_LIMITS });
  service = client(server.url, EMBEDDED_SECRET_KEY);
  visitor = client(server.url, EMBEDDED_PUBLISHABLE_KEY);
  // A private bucket's rows, each readable and writable by its owner only: what the authenticated routes decide by.
  await db.exec(`
    create policy "own objects: read" on storage.objects for select to authenticated
      using (bucket_id like 'owned-%' and owner_id = (select auth.uid()::text));
    create policy "own objects: add" on storage.objects for insert to authenticated
      with check (bucket_id like 'owned-%' and owner_id = (select auth.uid()::text));
    create policy "own objects: change" on storage.objects for update to authenticated
      using (bucket_id like 'owned-%' and owner_id = (select auth.uid()::text))
      with check (bucket_id like 'owned-%' and owner_id = (select auth.uid()::text));`);
});
afterAll(async () => {
  await server?.close();
  await db?.close();
});

describe("bucket API", () => {
  it("creates, reads, lists, updates, empties and deletes a bucket with the secret key", async () => {
    const id = await newBucket({ public: true, fileSizeLimit: "1mb", allowedMimeTypes: ["image/png"] });
    const got = await service.storage.getBucket(id);
    expect(got.data).toMatchObject({
      id,
      name: id,
      public: true,
      file_size_limit: 1_000_000,
      allowed_mime_types: ["image/png"],
      owner: null,
    });
    expect(got.data!.created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const listed = await service.storage.listBuckets({ search: id });
    expect(listed.data!.map((b) => b.id)).toEqual([id]);

    const updated = await service.storage.updateBucket(id, { public: false, fileSizeLimit: 2048 });
    expect(updated).toEqual({ data: { message: "Successfully updated" }, error: null });
    expect((await service.storage.getBucket(id)).data).toMatchObject({
      public: false,
      file_size_limit: 2048,
      allowed_mime_types: ["image/png"],
    });

    expect((await service.storage.from(id).upload("a.png", png())).error).toBeNull();
    const refused = await service.storage.deleteBucket(id);
    expect(refused.error).toMatchObject({ statusCode: "409", message: "The bucket you tried to delete is not empty" });
    expect(await service.storage.emptyBucket(id)).toEqual({
      data: { message: "Empty bucket has been queued. Completion may take up to an hour." },
      error: null,
    });
    expect((await service.storage.from(id).list()).data).toEqual([]);
    expect(await service.storage.deleteBucket(id)).toEqual({ data: { message: "Successfully deleted" }, error: null });
    expect((await service.storage.getBucket(id)).error).toMatchObject({
      statusCode: "404",
      message: "Bucket not found",
    });
  });

  it("refuses a taken id, a bad name, a bad size and a bad type, in Storage's words", async () => {
    const id = await newBucket();
    expect((await service.storage.createBucket(id)).error).toMatchObject({
      statusCode: "409",
      code: "BucketAlreadyExists",
    });
    expect((await service.storage.createBucket("a/b")).error).toMatchObject({
      statusCode: "400",
      code: "InvalidBucketName",
    });
    expect((await service.storage.createBucket("sizes", { public: false, fileSizeLimit: "lots" })).error).toMatchObject(
      {
        statusCode: "400",
        message: "Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B",
      },
    );
    expect((await service.storage.createBucket("huge", { public: false, fileSizeLimit: "1gb" })).error).toMatchObject({
      statusCode: "413",
    });
    expect(
      (await service.storage.createBucket("types", { public: false, allowedMimeTypes: ["png"] })).error,
    ).toMatchObject({
      statusCode: "415",
    });
  });

  it("is closed to the publishable key and a signed-in user (row-level security on storage.buckets)", async () => {
    const id = await newBucket({ public: true });
    const { client: user } = await signedIn();
    for (const who of [visitor, user]) {
      expect((await who.storage.createBucket(`mine-${bucketCount}`)).error).toMatchObject({
        statusCode: "403",
        code: "AccessDenied",
      });
      expect((await who.storage.getBucket(id)).error).toMatchObject({ statusCode: "404" });
      expect((await who.storage.listBuckets()).data).toEqual([]);
      expect((await who.storage.updateBucket(id, { public: false })).error).toMatchObject({ statusCode: "404" });
      expect((await who.storage.emptyBucket(id)).error).toMatchObject({
        statusCode: "403",
        message: "Access denied: Invalid role",
      });
      expect((await who.storage.deleteBucket(id)).error).toMatchObject({ statusCode: "404" });
    }
    expect((await service.storage.getBucket(id)).data!.public).toBe(true);
  });

  it("honours a bucket's limits on uploads, signed uploads and copies", async () => {
    const small = await newBucket({ public: false, fileSizeLimit: 10, allowedMimeTypes: ["text/*"] });
    const open = await newBucket();
    const big = await service.storage.from(small).upload("big.txt", "x".repeat(11), { contentType: "text/plain" });
    expect(big.error).toMatchObject({ statusCode: "413", message: "The object exceeded the maximum allowed size" });
    const image = await service.storage.from(small).upload("a.png", png());
    expect(image.error).toMatchObject({ statusCode: "415", message: "mime type image/png is not supported" });
    expect(
      (await service.storage.from(small).upload("ok.txt", "tiny", { contentType: "text/plain" })).error,
    ).toBeNull();

    const signed = await service.storage.from(small).createSignedUploadUrl("signed.png");
    const viaToken = await visitor.storage.from(small).uploadToSignedUrl("signed.png", signed.data!.token, png());
    expect(viaToken.error).toMatchObject({ statusCode: "415" });

    await service.storage.from(open).upload("a.png", png());
    const copied = await service.storage.from(open).copy("a.png", "a.png", { destinationBucket: small });
    expect(copied.error).toMatchObject({ statusCode: "415" });
  });
});

describe("objects", () => {
  it("routes a word after /object as hosted Storage does, and answers an unknown route 404", async () => {
    // A bucket literally named "sign" cannot capture signing: POST /object/sign/<bucket>/<name> signs.
    const id = await newBucket();
    await service.storage.from(id).upload("doc.png", png());
    const sign = await storageFetch(`/object/sign/${id}/doc.png`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ expiresIn: 60 }),
    });
    expect(sign.status).toBe(200);
    expect((await sign.json()).signedURL).toMatch(new RegExp(`^/object/sign/${id}/doc\\.png\\?token=`));
    for (const [method, path] of [
      ["GET", "/object/sign"],
      ["PATCH", `/object/${id}/doc.png`],
      ["GET", "/bucket/a/b/c"],
      ["GET", "/render/image/public/x/y.png"],
    ] as const) {
      const res = await storageFetch(path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toMatchObject({ statusCode: "404", error: "Not Found" });
    }
  });

  it("signs download URLs anyone may follow until they expire, for that object only", async () => {
    const id = await newBucket();
    await service.storage.from(id).upload("docs/a.png", png(), { cacheControl: "60" });
    await service.storage.from(id).upload("docs/b.png", png());
    const { data, error } = await service.storage.from(id).createSignedUrl("docs/a.png", 60, { download: "mine.png" });
    expect(error).toBeNull();
    const served = await fetch(data!.signedUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''mine.png");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const token = new URL(data!.signedUrl).searchParams.get("token")!;
    const other = await fetch(`${server.url}/storage/v1/object/sign/${id}/docs/b.png?token=${token}`);
    expect(await other.json()).toMatchObject({ statusCode: "400", code: "InvalidSignature" });
    const forged = await fetch(`${server.url}/storage/v1/object/sign/${id}/docs/a.png?token=${token.slice(0, -4)}AAAA`);
    expect(await forged.json()).toMatchObject({ statusCode: "400", code: "InvalidJWT", message: "invalid signature" });
    const asUpload = await visitor.storage.from(id).uploadToSignedUrl("docs/a.png", token, png());
    expect(asUpload.error).toMatchObject({ statusCode: "400", message: "Token is not scoped for upload" });
    const none = await fetch(`${server.url}/storage/v1/object/sign/${id}/docs/a.png`);
    expect(await none.json()).toMatchObject({ statusCode: "400", code: "InvalidRequest" });

    const many = await service.storage.from(id).createSignedUrls(["docs/a.png", "docs/missing.png"], 60);
    expect(many.data![0]).toMatchObject({ path: "docs/a.png", error: null });
    expect((await fetch(many.data![0].signedUrl!)).status).toBe(200);
    expect(many.data![1]).toMatchObject({ path: "docs/missing.png", signedUrl: null });

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 61_000 });
    try {
      const late = await fetch(data!.signedUrl);
      expect(await late.json()).toMatchObject({ statusCode: "400", code: "InvalidJWT", message: "jwt expired" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("signs upload URLs as the caller's policies allow, once, or to replace with upsert", async () => {
    const id = await newBucket({ public: false }, "owned");
    const alice = await signedIn();
    const { data, error } = await alice.client.storage.from(id).createSignedUploadUrl("up/a.png");
    expect(error).toBeNull();
    expect(data!.signedUrl).toContain(`/object/upload/sign/${id}/up/a.png?token=`);
    // Whoever holds the token uploads, as the token's owner.
    const first = await visitor.storage.from(id).uploadToSignedUrl("up/a.png", data!.token, png());
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ path: "up/a.png", fullPath: `${id}/up/a.png` });
    expect((await alice.client.storage.from(id).exists("up/a.png")).data).toBe(true);
    const again = await visitor.storage.from(id).uploadToSignedUrl("up/a.png", data!.token, png());
    expect(again.error).toMatchObject({ statusCode: "409", message: "The resource already exists" });
    const replacing = await alice.client.storage.from(id).createSignedUploadUrl("up/a.png", { upsert: true });
    const replaced = await visitor.storage
      .from(id)
      .uploadToSignedUrl("up/a.png", replacing.data!.token, "text", { contentType: "text/plain" });
    expect(replaced.error).toBeNull();
    expect((await alice.client.storage.from(id).info("up/a.png")).data!.contentType).toBe("text/plain");
    const elsewhere = await visitor.storage.from(id).uploadToSignedUrl("up/b.png", data!.token, png());
    expect(elsewhere.error).toMatchObject({ statusCode: "400", code: "InvalidSignature" });

    // A visitor the policies refuse gets no upload URL, nor one for a bucket that is not there.
    expect((await visitor.storage.from(id).createSignedUploadUrl("up/c.png")).error).toMatchObject({
      statusCode: "403",
      code: "AccessDenied",
    });
    expect((await alice.client.storage.from("no-such").createSignedUploadUrl("c.png")).error).toMatchObject({
      statusCode: "404",
      code: "NoSuchBucket",
    });
  });

  it("reads a private object only as its policies let the caller; a public one by name", async () => {
    const id = await newBucket({ public: false }, "owned");
    const [alice, bob] = [await signedIn(), await signedIn()];
    expect((await alice.client.storage.from(id).upload("a.png", png())).error).toBeNull();
    const own = await alice.client.storage.from(id).download("a.png");
    expect(own.error).toBeNull();
    expect(own.data!.type).toBe("image/png");
    for (const who of [bob.client, visitor]) {
      expect((await who.storage.from(id).download("a.png")).error).toMatchObject({
        statusCode: "404",
        code: "NoSuchKey",
      });
      expect((await who.storage.from(id).exists("a.png")).data).toBe(false);
      expect((await who.storage.from(id).info("a.png")).error).toMatchObject({ statusCode: "404" });
      expect((await who.storage.from(id).createSignedUrl("a.png", 60)).error).toMatchObject({ statusCode: "404" });
      expect((await who.storage.from(id).list()).data).toEqual([]);
    }
    const viaAuthenticated = await fetch(`${server.url}/storage/v1/object/authenticated/${id}/a.png`, {
      headers: { apikey: EMBEDDED_PUBLISHABLE_KEY },
    });
    expect(await viaAuthenticated.json()).toMatchObject({ statusCode: "404", code: "NoSuchKey" });
    expect((await fetch(`${server.url}/storage/v1/object/public/${id}/a.png`)).status).toBe(400);

    const open = await newBucket({ public: true });
    await service.storage.from(open).upload("p.png", png());
    expect((await bob.client.storage.from(open).download("p.png")).error).toBeNull();
    expect((await visitor.storage.from(open).exists("p.png")).data).toBe(true);
    const publicInfo = await fetch(`${server.url}/storage/v1/object/info/public/${open}/p.png`);
    expect(await publicInfo.json()).toMatchObject({ name: "p.png", bucket_id: open, content_type: "image/png" });
  });

  it("keeps the uploader's metadata from a form or the x-metadata header, and answers it in info", async () => {
    const id = await newBucket();
    const files = service.storage.from(id);
    expect((await files.upload("form.png", png(), { metadata: { a: 1 } })).error).toBeNull();
    expect(
      (await files.upload("raw.txt", "words", { contentType: "text/plain", metadata: { b: "two" } })).error,
    ).toBeNull();
    expect((await files.upload("none.png", png())).error).toBeNull();
    const form = await files.info("form.png");
    expect(form.data).toMatchObject({
      name: "form.png",
      bucketId: id,
      size: PNG.length,
      contentType: "image/png",
      cacheControl: "max-age=3600",
      metadata: { a: 1 },
    });
    expect(form.data!.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await files.info("raw.txt")).data!.metadata).toEqual({ b: "two" });
    expect((await files.info("none.png")).data!.metadata).toEqual({});
    const bad = await storageFetch(`/object/${id}/bad.txt`, {
      method: "POST",
      headers: { "Content-Type": "text/plain", "x-metadata": Buffer.from("[1]").toString("base64") },
      body: "x",
    });
    expect(await bad.json()).toMatchObject({ statusCode: "400", message: "metadata must be a JSON object" });
  });

  it("moves and copies within and across buckets, as the caller's policies allow", async () => {
    const [one, two] = [await newBucket(), await newBucket()];
    const files = service.storage.from(one);
    await files.upload("a.png", png(), { metadata: { kept: true } });
    expect(await files.move("a.png", "moved/a.png")).toMatchObject({ data: { message: "Successfully moved" } });
    expect((await files.exists("a.png")).data).toBe(false);
    const across = await files.move("moved/a.png", "b.png", { destinationBucket: two });
    expect(across.error).toBeNull();
    expect((await service.storage.from(two).download("b.png")).data!.size).toBe(PNG.length);
    expect((await files.move("gone.png", "x.png")).error).toMatchObject({ statusCode: "404", code: "NoSuchKey" });

    const copy = await service.storage.from(two).copy("b.png", "c.png", { destinationBucket: one });
    expect(copy).toEqual({ data: { path: `${one}/c.png` }, error: null });
    expect((await files.info("c.png")).data!.metadata).toEqual({ kept: true });
    expect((await service.storage.from(two).exists("b.png")).data).toBe(true);
    expect((await service.storage.from(two).copy("b.png", "c.png", { destinationBucket: one })).error).toMatchObject({
      statusCode: "409",
    });
    await service.storage.from(two).upload("d.png", png());
    expect((await service.storage.from(two).move("d.png", "b.png")).error).toMatchObject({ statusCode: "409" });

    // A user moves only what their update policy lets them (their own), never someone else's.
    const id = await newBucket({ public: false }, "owned");
    const [alice, bob] = [await signedIn(), await signedIn()];
    await alice.client.storage.from(id).upload("mine.png", png());
    expect((await bob.client.storage.from(id).move("mine.png", "stolen.png")).error).toMatchObject({
      statusCode: "404",
    });
    expect((await alice.client.storage.from(id).move("mine.png", "renamed.png")).error).toBeNull();
    expect((await bob.client.storage.from(id).copy("renamed.png", "copy.png")).error).toMatchObject({
      statusCode: "404",
    });
  });

  it("lists with list-v2: by prefix, one level with folders, sorted, a page at a time", async () => {
    const id = await newBucket();
    const files = service.storage.from(id);
    for (const name of ["d/z.png", "d/b.png", "d/x.png", "d/sub/a.png", "top.png"]) await files.upload(name, png());
    // A second apart, in upload order, so the date order does not rest on the clock's resolution.
    await db.query(
      `update storage.objects set created_at = timestamptz '2026-01-01' + make_interval(secs => array_position($2::text[], name))
        where bucket_id = $1`,
      [id, ["d/z.png", "d/b.png", "d/x.png", "d/sub/a.png", "top.png"]],
    );
    const flat = await files.listV2({ prefix: "d/" });
    expect(flat.data!.objects.map((o) => o.name)).toEqual(["d/b.png", "d/sub/a.png", "d/x.png", "d/z.png"]);
    expect(flat.data!.folders).toEqual([]);
    const level = await files.listV2({ prefix: "d/", with_delimiter: true });
    expect(level.data!.folders).toEqual([{ key: "sub", name: "d/sub/" }]);
    expect(level.data!.objects.map((o) => o.name)).toEqual(["d/b.png", "d/x.png", "d/z.png"]);

    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await files.listV2({
        prefix: "d/",
        with_delimiter: true,
        limit: 2,
        sortBy: { column: "created_at", order: "desc" },
        ...(cursor ? { cursor } : {}),
      });
      expect(page.error).toBeNull();
      pages.push([...page.data!.folders, ...page.data!.objects].map((o) => o.name));
      cursor = page.data!.hasNext ? page.data!.nextCursor : undefined;
    } while (cursor);
    // Newest first; a folder has no date, so it comes last when dates are sorted downwards (each page lists its
    // folders before its objects).
    expect(pages).toEqual([
      ["d/x.png", "d/b.png"],
      ["d/sub/", "d/z.png"],
    ]);
  });
});
