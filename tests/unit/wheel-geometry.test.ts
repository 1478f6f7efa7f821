// The wheel is drawn as the odds say: each segment's angle is proportional to its weight,
// the arcs tile the circle in position order, a spin lands inside the recorded segment, and a label is only
// drawn where it fits at a legible size.
import { describe, expect, it } from "vitest";
import { labelFontSize, landingRotation, segmentArcs, settledRotation } from "@/lib/spinner/wheel-geometry";

// The demo wheel's weights (supabase/migrations/*_labspinner.sql): a 1% £10 segment among them.
const DEMO = [1, 30, 12, 25, 20, 7, 2, 3];

describe("segmentArcs", () => {
  it("gives each segment an angle proportional to its weight", () => {
    const arcs = segmentArcs(DEMO);
    const total = DEMO.reduce((a, b) => a + b, 0);
    arcs.forEach((arc, i) => expect(arc.sweep).toBeCloseTo((360 * DEMO[i]) / total, 9));
    expect(arcs[0].sweep).toBeCloseTo(3.6, 9);
    expect(arcs[1].sweep / arcs[0].sweep).toBeCloseTo(30, 9);
  });

  it("tiles the circle clockwise from the top in position order", () => {
    const arcs = segmentArcs([3, 1, 1_000_000, 7]);
    expect(arcs[0].start).toBe(0);
    expect(arcs.at(-1)?.end).toBe(360);
    for (let i = 1; i < arcs.length; i++) expect(arcs[i].start).toBe(arcs[i - 1].end);
    for (const arc of arcs) expect(arc.middle).toBeCloseTo((arc.start + arc.end) / 2, 9);
  });

  it("draws equal weights as equal slices", () => {
    for (const arc of segmentArcs([5, 5, 5, 5])) expect(arc.sweep).toBeCloseTo(90, 9);
  });
});

describe("landingRotation", () => {
  it("stops with the pointer inside the segment, wherever the offset lands it", () => {
    const arcs = segmentArcs(DEMO);
    for (const [index, arc] of arcs.entries()) {
      for (const offset of [-0.35, 0, 0.35]) {
        const rotation = landingRotation(123.4 * index, arc, offset);
        // The pointer at the top reads the face at -rotation.
        const under = settledRotation(-rotation);
        expect(under).toBeGreaterThan(arc.start);
        expect(under).toBeLessThan(arc.end);
        expect(rotation).toBeGreaterThan(123.4 * index + 5 * 360);
      }
    }
  });
});

describe("labelFontSize", () => {
  it("keeps the demo wheel's thin 1% slice labelled at a legible size", () => {
    const size = labelFontSize(3.6, "£10 credit".length);
    expect(size).not.toBeNull();
    expect(size).toBeGreaterThanOrEqual(9);
  });

  it("caps wide slices and leaves a label off a slice too thin to hold it", () => {
    expect(labelFontSize(90, "No prize".length)).toBe(17);
    expect(labelFontSize(0.36, "£10 credit".length)).toBeNull();
  });
});
