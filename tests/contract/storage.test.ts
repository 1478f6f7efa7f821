// The embedded backend's Storage API, driven by the real @supabase/storage-js (supabase-js's
// `.storage`): upload, list, public URL, delete against the competition-images bucket the migration
// makes, with its policies deciding who writes (an admin at aal2) and its limits refusing oversize and
// wrong types, in hosted Storage's error shape. Bytes land under the data folder. Then the private
// winner-photos bucket: no visitor or player lists either bucket or gets a winner's photo out of Storage by
// any route (public URL, download, signed URL, info, exists); only the server's secret key reads it.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminClient,
  client,
  raw,
  signIn,
  signInAtAal2,
  startTestServer,
  type Client,
  type TestServer,
} from "./helpers";

const BUCKET = "competition-images";
// A valid 1×1 PNG and a (tiny) WebP header: Storage checks the declared type, not the bytes.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const WEBP = Buffer.from(
  "RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00",
  "latin1",
);

let server: TestServer;
let dataDir: string;
let admin: Client;
let player: Client;
let visitor: Client;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "labcash-storage-"));
  server = await startTestServer({ dataDir });
  admin = (await signInAtAal2(server, "admin@labcash.test")).client;
  player = (await signIn(server, "player@labcash.test")).client;
  visitor = client(server);
});

afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const files = async () => readdir(path.join(dataDir, "storage", BUCKET)).catch(() => [] as string[]);
const unique = (ext: string) => `tests/${crypto.randomUUID()}.${ext}`;

describe("Storage API with storage-js", () => {
  it("uploads as an admin, lists, serves the public URL with its bytes and type, and deletes", async () => {
    const name = unique("png");
    const up = await admin.storage.from(BUCKET).upload(name, new Blob([PNG], { type: "image/png" }));
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: name, fullPath: `${BUCKET}/${name}` });
    expect(up.data!.id).toMatch(/^[0-9a-f-]{36}$/);

    const listed = await admin.storage.from(BUCKET).list("tests", { search: path.basename(name) });
    expect(listed.error).toBeNull();
    expect(listed.data).toHaveLength(1);
    expect(listed.data![0]).toMatchObject({
      name: path.basename(name),
      id: up.data!.id,
      metadata: { mimetype: "image/png", size: PNG.length, cacheControl: "max-age=3600" },
    });

    const { publicUrl } = visitor.storage.from(BUCKET).getPublicUrl(name).data;
    expect(publicUrl).toBe(`${server.url}/storage/v1/object/public/${BUCKET}/${name}`);
    // No key at all: an <img> carries none.
    const served = await fetch(publicUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("max-age=3600");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const etag = served.headers.get("etag")!;
    expect((await fetch(publicUrl, { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect(await files()).toHaveLength(1);

    const removed = await admin.storage.from(BUCKET).remove([name]);
    expect(removed.error).toBeNull();
    expect(removed.data!.map((o) => o.name)).toEqual([name]);
    const gone = await fetch(publicUrl);
    expect(gone.status).toBe(400);
    expect(await gone.json()).toEqual({
      statusCode: "404",
      code: "NoSuchKey",
      error: "not_found",
      message: "Object not found",
    });
    expect(await files()).toHaveLength(0);
  });

  it("refuses to overwrite without upsert and replaces with it, keeping one file", async () => {
    const name = unique("webp");
    const bucket = admin.storage.from(BUCKET);
    expect((await bucket.upload(name, PNG, { contentType: "image/png" })).error).toBeNull();
    const again = await bucket.upload(name, WEBP, { contentType: "image/webp" });
    expect(again.error).toMatchObject({ status: 400, statusCode: "409", code: "KeyAlreadyExists" });
    const replaced = await bucket.upload(name, WEBP, { contentType: "image/webp", upsert: true, cacheControl: "60" });
    expect(replaced.error).toBeNull();
    const served = await fetch(bucket.getPublicUrl(name).data.publicUrl);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("cache-control")).toBe("max-age=60");
    expect(Buffer.from(await served.arrayBuffer()).equals(WEBP)).toBe(true);
    expect(await files()).toHaveLength(1);
    await bucket.remove([name]);
  });

  it("refuses a player's upload by the bucket's policy, and their delete removes nothing", async () => {
    const refused = await player.storage.from(BUCKET).upload(unique("png"), PNG, { contentType: "image/png" });
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({
      name: "StorageApiError",
      status: 400,
      statusCode: "403",
      code: "AccessDenied",
      message: "new row violates row-level security policy",
    });
    expect(await files()).toHaveLength(0);

    const name = unique("png");
    await admin.storage.from(BUCKET).upload(name, PNG, { contentType: "image/png" });
    const removed = await player.storage.from(BUCKET).remove([name]);
    expect(removed).toEqual({ data: [], error: null });
    expect((await fetch(visitor.storage.from(BUCKET).getPublicUrl(name).data.publicUrl)).status).toBe(200);
    await admin.storage.from(BUCKET).remove([name]);
  });

  it("refuses an admin who has not given the second step", async () => {
    const aal1 = (await signIn(server, "superadmin@labcash.test")).client;
    const refused = await aal1.storage.from(BUCKET).upload(unique("png"), PNG, { contentType: "image/png" });
    expect(refused.error).toMatchObject({ statusCode: "403", code: "AccessDenied" });
  });

  it("lets a visitor read an image by its name, and neither list the bucket nor upload", async () => {
    const name = unique("png");
    await admin.storage.from(BUCKET).upload(name, PNG, { contentType: "image/png" });
    expect((await fetch(visitor.storage.from(BUCKET).getPublicUrl(name).data.publicUrl)).status).toBe(200);
    expect((await admin.storage.from(BUCKET).list("tests")).data!.map((o) => o.name)).toContain(path.basename(name));
    for (const who of [visitor, player]) {
      expect(await who.storage.from(BUCKET).list("tests")).toEqual({ data: [], error: null });
      expect(await who.storage.from(BUCKET).list()).toEqual({ data: [], error: null });
      const v2 = await who.storage.from(BUCKET).listV2({ prefix: "tests/" });
      expect(v2).toEqual({ data: { hasNext: false, folders: [], objects: [] }, error: null });
    }
    const refused = await visitor.storage.from(BUCKET).upload(unique("png"), PNG, { contentType: "image/png" });
    expect(refused.error).toMatchObject({ statusCode: "403", code: "AccessDenied" });
    await admin.storage.from(BUCKET).remove([name]);
  });

  it("enforces the bucket's size limit and types", async () => {
    const bucket = admin.storage.from(BUCKET);
    const big = await bucket.upload(unique("png"), Buffer.alloc(5 * 1024 * 1024 + 1), { contentType: "image/png" });
    expect(big.error).toMatchObject({
      status: 400,
      statusCode: "413",
      code: "EntityTooLarge",
      message: "The object exceeded the maximum allowed size",
    });
    const gif = await bucket.upload(unique("gif"), new Blob([PNG], { type: "image/gif" }));
    expect(gif.error).toMatchObject({
      statusCode: "415",
      code: "InvalidMimeType",
      message: "mime type image/gif is not supported",
    });
    expect(await files()).toHaveLength(0);
  });

  it("answers in Storage's error shape: unknown bucket, bad key, missing apikey, unknown route", async () => {
    const missing = await admin.storage.from("no-such-bucket").upload("a.png", PNG, { contentType: "image/png" });
    expect(missing.error).toMatchObject({ statusCode: "404", code: "NoSuchBucket", message: "Bucket not found" });
    const badKey = await admin.storage.from(BUCKET).upload("tests/a{b}.png", PNG, { contentType: "image/png" });
    expect(badKey.error).toMatchObject({ statusCode: "400", code: "InvalidKey" });
    const noKey = await raw(server, `/storage/v1/object/list/${BUCKET}`, {
      key: null,
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ prefix: "" }),
    });
    expect(noKey.status).toBe(401);
    const unknown = await raw(server, "/storage/v1/object");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      statusCode: "404",
      error: "Not Found",
      message: "Route GET:/object not found",
    });
  });
});

describe("Winner photos: a private bucket", () => {
  const PHOTOS = "winner-photos";

  it("gives no visitor or player a photo, by any Storage route, nor a list; the secret key reads it", async () => {
    const name = `${crypto.randomUUID()}.png`;
    expect((await admin.storage.from(PHOTOS).upload(name, PNG, { contentType: "image/png" })).error).toBeNull();

    // No key at all, as a link in a page would be fetched: the bucket is not public.
    const byUrl = await fetch(visitor.storage.from(PHOTOS).getPublicUrl(name).data.publicUrl);
    expect(byUrl.status).toBe(400);
    expect(await byUrl.json()).toMatchObject({ statusCode: "404", code: "NoSuchBucket" });

    for (const who of [visitor, player]) {
      const photos = who.storage.from(PHOTOS);
      expect(await photos.list()).toEqual({ data: [], error: null });
      expect((await photos.listV2()).data).toEqual({ hasNext: false, folders: [], objects: [] });
      const download = await photos.download(name);
      expect(download.data).toBeNull();
      expect(download.error).toMatchObject({ statusCode: "404", code: "NoSuchKey" });
      expect((await photos.createSignedUrl(name, 60)).error).toMatchObject({ statusCode: "404", code: "NoSuchKey" });
      expect((await photos.createSignedUrls([name], 60)).data).toMatchObject([
        { error: "Either the object does not exist or you do not have access to it", path: name, signedUrl: null },
      ]);
      expect((await photos.info(name)).error).toMatchObject({ statusCode: "404", code: "NoSuchKey" });
      expect((await photos.exists(name)).data).toBe(false);
      const copied = await photos.copy(name, `${crypto.randomUUID()}.png`);
      expect(copied.error).toMatchObject({ statusCode: "404", code: "NoSuchKey" });
      expect((await photos.createSignedUploadUrl(`${crypto.randomUUID()}.png`)).error).toMatchObject({
        statusCode: "403",
        code: "AccessDenied",
      });
    }

    // The site's server reads it with the secret key (app/media/winner-photos), as an admin at aal2 may.
    const read = await adminClient(server).storage.from(PHOTOS).download(name);
    expect(read.error).toBeNull();
    expect(Buffer.from(await read.data!.arrayBuffer()).equals(PNG)).toBe(true);
    expect(read.data!.type).toBe("image/png");
    expect((await admin.storage.from(PHOTOS).exists(name)).data).toBe(true);
    expect((await admin.storage.from(PHOTOS).remove([name])).data).toHaveLength(1);
  });
});
