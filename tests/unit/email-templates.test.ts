// The auth e-mails' links (supabase/templates, as supabase/config.toml lists them for hosted projects) carry the
// address and the code, never GoTrue's token_hash or its own verify link: /auth/confirm counts each try against the
// address it names, which a hash cannot name.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { emailLinkSchema } from "@/lib/validation/auth";

const config = readFileSync("supabase/config.toml", "utf8");
const templates = [
  ...config.matchAll(/^\[auth\.email\.template\.(\w+)\]\nsubject = "[^"]+"\ncontent_path = "\.\/([^"]+)"$/gm),
].map(([, name, path]) => ({ name, body: readFileSync(path, "utf8") }));

describe("the auth e-mail templates", () => {
  it("are the sign-in, reset, confirmation and invitation e-mails", () => {
    expect(templates.map((t) => t.name).sort()).toEqual(["confirmation", "invite", "magic_link", "recovery"]);
  });

  it.each(templates)("$name links to /auth/confirm with the address and the code, and no token hash", ({ body }) => {
    const hrefs = [...body.matchAll(/href="([^"]+)"/g)].map(([, href]) => href);
    expect(hrefs).toHaveLength(1);
    const link =
      /^\{\{ \.SiteURL \}\}\/auth\/confirm\?email=\{\{ \.Email \}\}&code=\{\{ \.Token \}\}&type=(\w+)&next=\{\{ \.RedirectTo \}\}$/.exec(
        hrefs[0],
      );
    expect(link, hrefs[0]).not.toBeNull();
    // A type the route takes.
    expect(emailLinkSchema.shape.type.safeParse(link![1]).success).toBe(true);
    expect(body).not.toMatch(/TokenHash|ConfirmationURL|token_hash/);
    expect(body).toContain("10 minutes");
  });
});
