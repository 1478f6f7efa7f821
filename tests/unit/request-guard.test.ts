import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { BAD_ACTION_REQUEST, CROSS_ORIGIN_REFUSED, isWellFormedPath, refuseBadRequest } from "@/lib/http/request-guard";

// The proxy's first check: what Next answered with a 500 is a 404, 403 or 400 here.

const SITE = "https://labcash.example";
const ACTION_ID = "7f17972cdb3024071a2f2d6c788a0cafcd340f6d4b";

const post = (path: string, headers: Record<string, string>, body: BodyInit) =>
  new NextRequest(`${SITE}${path}`, { method: "POST", headers: { host: "labcash.example", ...headers }, body });

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

/** A no-JS post as React writes a useActionState form: the action's reference, and the arguments bound to it. */
const noJsPost = (bound: string) =>
  form({
    $ACTION_REF_1: "",
    "$ACTION_1:0": `{"id":"${ACTION_ID}","bound":"$@1"}`,
    "$ACTION_1:1": bound,
    $ACTION_KEY: "k0",
    email: "a@b.c",
  });

describe("isWellFormedPath", () => {
  it.each(["/", "/competitions/a-prize", "/competitions/caf%C3%A9", "/docs/a%20b/c"])("accepts %s", (path) => {
    expect(isWellFormedPath(path)).toBe(true);
  });
  it.each(["/competitions/%E0%A4%A", "/competitions/a%00b", "/winners/%", "/docs/%0A", "/a%7Fb", "/%C0%AF"])(
    "refuses %s",
    (path) => {
      expect(isWellFormedPath(path)).toBe(false);
    },
  );
});

describe("refuseBadRequest", () => {
  it("answers a malformed path with the not-found page for a browser and 404 text otherwise", async () => {
    const page = await refuseBadRequest(
      new NextRequest(`${SITE}/competitions/%E0%A4%A`, { headers: { accept: "text/html" } }),
    );
    expect(page?.status).toBe(404);
    expect(page?.headers.get("x-middleware-rewrite")).toMatch(/\/_labcash\/not-found$/);
    const csv = await refuseBadRequest(new NextRequest(`${SITE}/competitions/a%00b/entries/entrants.csv`));
    expect(csv?.status).toBe(404);
    expect(await csv?.text()).toBe("Not found");
  });

  it("refuses a no-JS form post and a server action from another origin with 403", async () => {
    const foreign: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
    ];
    for (const headers of foreign) {
      const noJs = await refuseBadRequest(
        post("/competitions/a-prize", headers, form({ [`$ACTION_ID_${ACTION_ID}`]: "" })),
      );
      expect(noJs?.status, JSON.stringify(headers)).toBe(403);
      expect(await noJs?.text()).toBe(CROSS_ORIGIN_REFUSED);
      const urlEncoded = await refuseBadRequest(
        post("/login", { ...headers, "content-type": "application/x-www-form-urlencoded" }, "email=a%40b.c"),
      );
      expect(urlEncoded?.status).toBe(403);
      const action = await refuseBadRequest(post("/login", { ...headers, "next-action": ACTION_ID }, "[]"));
      expect(action?.status).toBe(403);
    }
  });

  it("refuses an action body nothing can decode with 400", async () => {
    const same = { origin: SITE };
    const garbageText = await refuseBadRequest(
      post("/login", { ...same, "next-action": ACTION_ID, "content-type": "text/plain;charset=UTF-8" }, "garbage{{"),
    );
    expect(garbageText?.status).toBe(400);
    expect(await garbageText?.text()).toBe(BAD_ACTION_REQUEST);
    const garbageMultipart = await refuseBadRequest(
      post(
        "/login",
        { ...same, "next-action": ACTION_ID, "content-type": "multipart/form-data; boundary=xyz" },
        "garbage",
      ),
    );
    expect(garbageMultipart?.status).toBe(400);
    const noJsGarbage = await refuseBadRequest(
      post("/login", { ...same, "content-type": "multipart/form-data; boundary=xyz" }, "garbage"),
    );
    expect(noJsGarbage?.status).toBe(400);
    const badRoot = await refuseBadRequest(
      post("/login", { ...same, "next-action": ACTION_ID }, form({ "0": "{not json" })),
    );
    expect(badRoot?.status).toBe(400);
  });

  it("refuses well-formed action bodies whose arguments no action here takes with 400, in one log line", async () => {
    const same = { origin: SITE, "request-id": "req-1" };
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    try {
      const shapes = [
        // A state that leads React elsewhere in the body: a Map, a blob, a server reference, a chunk, a stream,
        // an iterator, a path to nothing.
        '["$Q5","$K1"]',
        '[{"a":"$B1"},"$K1"]',
        '["$F1","$K1"]',
        '["$h1","$K1"]',
        '["$1","$K1"]',
        '["$Sfoo","$K1"]',
        '["$i2","$K1"]',
        '[{"a":1,"c":"$0:0:zz"},"$K1"]',
        '["$0:5:x","$K1"]',
        "[]",
        '["$K1"]',
        '["$K1",null]',
        '[null,"$K1",3]',
        '[null,{"email":"a@b.c"}]',
        '{"0":1}',
        "42",
        '"x"',
        '[null,"K1"]',
      ];
      for (const body of shapes) {
        const text = await refuseBadRequest(post("/login", { ...same, "next-action": ACTION_ID }, body));
        expect(text?.status, body).toBe(400);
        expect(await text?.text()).toBe(BAD_ACTION_REQUEST);
        const multipart = await refuseBadRequest(
          post("/login", { ...same, "next-action": ACTION_ID }, form({ "0": body })),
        );
        expect(multipart?.status, body).toBe(400);
      }
      const noRoot = await refuseBadRequest(
        post("/login", { ...same, "next-action": ACTION_ID }, form({ email: "a" })),
      );
      expect(noRoot?.status).toBe(400);
      // No-JS posts: an action named bare, or bound to other than the state alone.
      const bare = await refuseBadRequest(post("/login", same, form({ [`$ACTION_ID_${ACTION_ID}`]: "", email: "a" })));
      expect(bare?.status).toBe(400);
      for (const bound of ["[]", "[null,null]", '"x"', "null", '["$Q1"]']) {
        const refused = await refuseBadRequest(post("/login", same, noJsPost(bound)));
        expect(refused?.status, bound).toBe(400);
      }
    } finally {
      spy.mockRestore();
    }
    expect(lines.length).toBe(2 * 18 + 1 + 1 + 5);
    for (const line of lines) {
      expect(line).not.toContain("\n");
      expect(JSON.parse(line)).toMatchObject({ level: "warn", event: "action_refused", path: "/login" });
    }
    expect(JSON.parse(lines[0])).toMatchObject({ action: ACTION_ID, problem: "action arguments" });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ action: null, problem: "form post arguments" });
  });

  it("lets this site's own actions, form posts, pages and every /api request through", async () => {
    const same = { origin: SITE, "sec-fetch-site": "same-origin" };
    expect(await refuseBadRequest(new NextRequest(`${SITE}/competitions/a-prize`))).toBeNull();
    expect(await refuseBadRequest(post("/login", { ...same, "next-action": ACTION_ID }, '[null,"$K1"]'))).toBeNull();
    expect(
      await refuseBadRequest(
        post("/login", { ...same, "next-action": ACTION_ID }, form({ "0": '[null,"$K1"]', "1_email": "a@b.c" })),
      ),
    ).toBeNull();
    // The state before may be any earlier answer, in every form React writes plain data.
    for (const previous of [
      '[{"ok":false,"error":"Enter your e-mail","fieldErrors":{"email":["x"]},"data":"$undefined"},"$K2"]',
      '[{"ok":true,"data":{"at":"$D2026-12-07T00:00:00.000Z","n":"$n12","x":"$NaN","y":"$-Infinity"}},"$K1"]',
      '[{"ok":true,"message":"$$5 off"},"$K1"]',
      '[{"a":{"b":1},"c":"$0:0:a"},"$K1"]',
    ])
      expect(
        await refuseBadRequest(post("/login", { ...same, "next-action": ACTION_ID }, form({ "0": previous }))),
        previous,
      ).toBeNull();
    // A no-JS post of a useActionState form: the action's reference binds the state.
    expect(await refuseBadRequest(post("/logout", same, noJsPost("[null]")))).toBeNull();
    expect(await refuseBadRequest(post("/login", same, form({ email: "a@b.c" })))).toBeNull();
    expect(
      await refuseBadRequest(post("/api/webhooks/stripe", { "content-type": "application/json" }, "{}")),
    ).toBeNull();
    expect(
      await refuseBadRequest(
        post("/api/anything", { origin: "https://evil.example", "content-type": "text/plain" }, "x"),
      ),
    ).toBeNull();
  });
});
