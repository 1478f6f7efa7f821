// The README's production section is what an operator follows to go live: one numbered list between the go-live
// markers, a Deploy button that prompts only for variables the app reads, and no SQL to type.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const readme = readFileSync("README.md", "utf8");
const production = readme.slice(readme.indexOf("## Production: hosted Supabase and Vercel"));
const envExample = readFileSync(".env.example", "utf8");

describe("the README's production section", () => {
  it("holds the go-live steps as one numbered list between the markers", () => {
    expect(production.match(/<!-- go-live:start -->/g)).toHaveLength(1);
    const steps = production.slice(
      production.indexOf("<!-- go-live:start -->"),
      production.indexOf("<!-- go-live:end -->"),
    );
    const numbers = [...steps.matchAll(/^(\d+)\. \*\*/gm)].map(([, n]) => Number(n));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(numbers.length).toBeGreaterThanOrEqual(4);
    expect(steps).toContain("npm run setup:admin -- you@example.com");
    expect(steps).toContain("npx supabase@3 config push --yes");
  });

  it("has no SQL for operators to type", () => {
    expect(production).not.toMatch(/\b(update|insert into|delete from)\s+(public|auth|private)\./i);
    expect(production).not.toMatch(/```sql/);
    expect(production).not.toMatch(/SQL editor/i);
  });

  it("starts with a Deploy button that clones the repository with the Supabase integration and prompts for known variables", () => {
    const link =
      /\[!\[Deploy with Vercel\]\(https:\/\/vercel\.com\/button\)\]\((https:\/\/vercel\.com\/new\/clone\?[^)\s]+)\)/.exec(
        production,
      );
    expect(link).not.toBeNull();
    expect(production.indexOf(link![0])).toBeLessThan(production.indexOf("<!-- go-live:start -->"));
    const params = new URL(link![1]).searchParams;
    expect(params.get("repository-url")).toMatch(/^https:\/\/github\.com\/[\w-]+\/labcash$/);
    for (const name of params.get("env")!.split(","))
      expect(envExample, `${name} is documented in .env.example`).toMatch(new RegExp(`^# ${name}=`, "m"));
    expect(JSON.parse(params.get("stores")!)).toEqual([
      { type: "integration", integrationSlug: "supabase", productSlug: "supabase" },
    ]);
  });
});
