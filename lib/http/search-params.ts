import { z } from "zod";

// Reading a page's query string (`searchParams`) the one way the filtered, keyset-paged screens do:
// each value checked on its own with zod, a bad one dropped with a note in words, never a 500.
// Pure (no server-only imports), so the parsers can be unit tested and used by client forms.

export type SearchParams = Record<string, string | string[] | undefined>;

/** One value of a parameter: a repeated parameter counts as its first value; empty means absent. */
export function firstParam(params: SearchParams, key: string): string | null {
  const value = params[key];
  const first = Array.isArray(value) ? value[0] : value;
  return first ? first.trim() || null : null;
}

/**
 * `read(key, schema, note)` gives the parsed value, or null when absent or invalid; an invalid
 * value's note (a sentence, or one made from the value) is added to `ignored`.
 */
export function paramReader(params: SearchParams) {
  const ignored: string[] = [];
  const read = <T>(key: string, schema: z.ZodType<T>, note: string | ((value: string) => string)): T | null => {
    const value = firstParam(params, key);
    if (value === null) return null;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    ignored.push(typeof note === "string" ? note : note(value));
    return null;
  };
  return { read, ignored };
}

/** A keyset cursor that is a row id (a positive bigint). */
export const idCursorSchema = z
  .string()
  .regex(/^[1-9]\d{0,14}$/)
  .transform(Number);

/** The cursors of the pages before this one, comma-separated, for the "Newer" link. */
export const idTrailSchema = (max: number) =>
  z
    .string()
    .transform((value) => value.split(","))
    .pipe(z.array(idCursorSchema).max(max));
