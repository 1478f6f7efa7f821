// Fuzzing every server action's input: whatever a form or a forged request
// posts, an action's schema answers with a parse or with messages written for people. It never
// throws, and never falls back on zod's own wording ("Invalid input: expected string…"), which is
// what a field without its own message would show.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { parseForm } from "@/lib/actions/action";

type FuzzableAction = ((...args: never[]) => unknown) & { schema?: z.ZodType };

const modules = import.meta.glob<Record<string, unknown>>(
  ["@/lib/actions/*.ts", "!@/lib/actions/action.ts", "!@/lib/actions/define-action.ts", "!@/lib/actions/result.ts"],
  { eager: true },
);

const actions = Object.entries(modules).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter((entry): entry is [string, FuzzableAction & { schema: z.ZodType }] => {
      const value = entry[1] as FuzzableAction;
      return typeof value === "function" && value.schema !== undefined;
    })
    .map(([name, action]) => ({ name: `${file.split("/").pop()}#${name}`, schema: action.schema })),
);

/** The field names a schema reads: those it complains about when they are missing, and its shape's. */
function fieldNames(schema: z.ZodType): string[] {
  const names = new Set<string>(["next", "x"]);
  const result = schema.safeParse({});
  if (!result.success) for (const issue of result.error.issues) if (issue.path[0]) names.add(String(issue.path[0]));
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (shape) for (const key of Object.keys(shape)) names.add(key);
  return [...names];
}

/** Whether the schema takes `name` as a list (rows of a table), so a form may repeat it. */
function takesList(schema: z.ZodType, name: string): boolean {
  const result = schema.safeParse({ [name]: ["a", "b"] });
  return (
    result.success ||
    !result.error.issues.some(
      (issue) => issue.path[0] === name && issue.code === "invalid_type" && issue.path.length === 1,
    )
  );
}

/** What a browser or a forged request can post: text fields, some repeated, from awkward alphabets. */
const fieldValue = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom("", " ", "on", "0", "-1", "NaN", "Infinity", "1e308", "0.001", "2026-02-30", "null", "<script>"),
  fc.integer().map(String),
  fc.double().map(String),
  fc.uuid().map(String),
);

function formFrom(fields: [string, string[]][]): FormData {
  const form = new FormData();
  for (const [key, values] of fields) for (const value of values) form.append(key, value);
  return form;
}

/** zod's default messages start like this; ours never do. */
const ZOD_DEFAULT =
  /^(Invalid input|Invalid option|Too (big|small)|Invalid (string|number|date|UUID|uuid|email)|Expected|Required|Unrecognized key)/;

describe("every server action's input", () => {
  it("found the actions", () => {
    expect(actions.length).toBeGreaterThanOrEqual(48);
  });

  for (const { name, schema } of actions) {
    it(`${name}: parses or refuses with a message of our own, never throws`, () => {
      const names = fieldNames(schema);
      // A form posts one value per field, or several for a list field.
      const field = fc
        .constantFrom(...names)
        .chain((name) =>
          fc.tuple(
            fc.constant(name),
            fc.array(fieldValue, { minLength: 1, maxLength: takesList(schema, name) ? 3 : 1 }),
          ),
        );
      const fields = fc.uniqueArray(field, { maxLength: names.length + 2, selector: ([name]) => name });
      fc.assert(
        fc.property(fields, (posted) => {
          const result = parseForm(schema, formFrom(posted));
          if (result.success) return;
          for (const issue of result.error.issues) {
            expect(issue.message.trim(), `${name} ${JSON.stringify(issue.path)}`).not.toBe("");
            expect(issue.message, `${name} ${JSON.stringify(issue.path)}`).not.toMatch(ZOD_DEFAULT);
          }
        }),
        { numRuns: 150 },
      );
    });
  }
});
