// The wheel editor previews each label's contrast in the browser (lib/spinner/contrast.ts); the
// rule that refuses a segment is SQL's private.contrast_ratio. They must agree, or the preview would pass a
// colour the save refuses (or the other way round).
import { describe, expect, it } from "vitest";
import { contrastRatio } from "@/lib/spinner/contrast";
import { dbPerFile } from "./support";

const db = dbPerFile();

/** 231 colours: greys in steps of 17, every mix of channels in steps of 51, two greys either side of 4.5:1 on white and some of the demo wheel's. */
function colours(): string[] {
  const hex = (n: number) => n.toString(16).padStart(2, "0");
  const steps = [0, 51, 102, 153, 204, 255];
  const list = new Set<string>(["#767676", "#777777", "#6d28d9", "#facc15", "#0f766e", "#1d4ed8", "#ff0000"]);
  for (let v = 0; v <= 255; v += 17) list.add(`#${hex(v)}${hex(v)}${hex(v)}`);
  for (const r of steps) for (const g of steps) for (const b of steps) list.add(`#${hex(r)}${hex(g)}${hex(b)}`);
  return [...list];
}

describe("the contrast preview", () => {
  it("agrees with private.contrast_ratio for white and black labels on 231 colours", async () => {
    const all = colours();
    const rows = await db().sql<{ colour: string; label_colour: string; ratio: string }>(
      `select c as colour, l as label_colour, private.contrast_ratio(c, l)::text as ratio
         from unnest($1::text[]) c, unnest(array['#ffffff', '#111111']) l`,
      [all],
    );
    expect(all.length).toBe(231);
    expect(rows.length).toBe(all.length * 2);
    for (const row of rows) {
      const preview = contrastRatio(row.colour, row.label_colour)!;
      expect(preview, `${row.colour} on ${row.label_colour}`).toBeCloseTo(Number(row.ratio), 9);
      expect(preview >= 4.5, `${row.colour} on ${row.label_colour}`).toBe(Number(row.ratio) >= 4.5);
    }
  });
});
