import { describe, expect, it } from "vitest";
import { createSlugger } from "@/lib/content/slug";

// Heading ids come from github-slugger (GitHub's rule), so links to a heading read as they would on GitHub.
describe("heading slugs", () => {
  it("lower-cases, drops punctuation and joins words with hyphens", () => {
    const slug = createSlugger();
    expect(slug("How the draw works")).toBe("how-the-draw-works");
    expect(slug("Free entry (postal route)")).toBe("free-entry-postal-route");
    expect(slug("What's a LabSpinner?")).toBe("whats-a-labspinner");
  });

  it("numbers repeats within one document, and each document starts again", () => {
    const slug = createSlugger();
    expect([slug("Example"), slug("Example"), slug("Example")]).toEqual(["example", "example-1", "example-2"]);
    expect(createSlugger()("Example")).toBe("example");
  });

  it("gives a heading with no letters or digits an id all the same", () => {
    const slug = createSlugger();
    expect(slug("!!!")).toBe("section");
    expect(slug("???")).toBe("section-1");
  });
});
