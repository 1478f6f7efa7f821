// The wheel's drawing and landing, in degrees clockwise from the top (where the pointer is).
// Each segment is drawn exactly as wide as its chance (its weight over the total): the picture and
// the odds table say the same thing, so a 1% segment is a thin slice (docs/decisions/033).

/** The centre and radius of the wheel in its SVG's 400 × 400 viewBox. */
export const WHEEL_CENTRE = 200;
export const WHEEL_RADIUS = 194;

/** Labels run along the radius from the hub outwards and end this far from the centre. */
export const LABEL_OUTER = WHEEL_RADIUS - 14;
const LABEL_INNER = 48;
/** Label sizes in viewBox units: 17 at most; under 9 (about 8 CSS pixels on a phone) no label is drawn. */
const LABEL_MAX = 17;
const LABEL_MIN = 9;
/** A bold label's average advance per character, and the height that must fit across the slice, in ems. */
const GLYPH_ADVANCE = 0.58;
const GLYPH_HEIGHT = 0.72;

/** Full turns before the wheel settles, so a spin reads as a spin. */
const TURNS = 6;

/** One segment's arc: where it starts and ends, its middle and its width. */
export type SegmentArc = { start: number; end: number; middle: number; sweep: number };

/** The arcs of segments with these weights, in position order, each as wide as its share of the total. */
export function segmentArcs(weights: readonly number[]): SegmentArc[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let start = 0;
  return weights.map((weight, index) => {
    // The last one closes the circle exactly, whatever the floating-point sum.
    const end = index === weights.length - 1 ? 360 : start + (360 * weight) / total;
    const arc = { start, end, middle: (start + end) / 2, sweep: end - start };
    start = end;
    return arc;
  });
}

/** A point at `radius` from the centre, `degrees` clockwise from the top. */
function point(degrees: number, radius: number): [number, number] {
  const radians = (degrees * Math.PI) / 180;
  return [WHEEL_CENTRE + radius * Math.sin(radians), WHEEL_CENTRE - radius * Math.cos(radians)];
}

/** The SVG path of a segment's slice. */
export function segmentPath(arc: SegmentArc): string {
  const [x0, y0] = point(arc.start, WHEEL_RADIUS);
  const [x1, y1] = point(arc.end, WHEEL_RADIUS);
  const largeArc = arc.sweep > 180 ? 1 : 0;
  const r = WHEEL_RADIUS;
  return `M ${WHEEL_CENTRE} ${WHEEL_CENTRE} L ${x0.toFixed(3)} ${y0.toFixed(3)} A ${r} ${r} 0 ${largeArc} 1 ${x1.toFixed(3)} ${y1.toFixed(3)} Z`;
}

/**
 * The size of a `characters`-long label set along the radius of a slice `sweep` degrees wide, ending at
 * LABEL_OUTER: as large as fits between the hub and the rim and across the slice where the text starts
 * (a slice is narrowest towards the centre). null when even the smallest legible size does not fit: the
 * label is then left off the face, and the odds table and the spin's result name the segment.
 */
export function labelFontSize(sweep: number, characters: number): number | null {
  const halfSine = Math.sin((Math.min(sweep, 180) * Math.PI) / 360);
  const alongRadius = (LABEL_OUTER - LABEL_INNER) / (characters * GLYPH_ADVANCE);
  // Width across the slice at the text's inner end, r = LABEL_OUTER − size·characters·advance: 2·r·sin(sweep/2) ≥ size·height.
  const acrossSlice = (2 * LABEL_OUTER * halfSine) / (GLYPH_HEIGHT + 2 * characters * GLYPH_ADVANCE * halfSine);
  const size = Math.min(LABEL_MAX, alongRadius, acrossSlice);
  return size >= LABEL_MIN ? size : null;
}

const mod360 = (degrees: number) => ((degrees % 360) + 360) % 360;

/**
 * The rotation that brings `arc` under the pointer after a few full turns from `current`. `offset`
 * (-0.5 to 0.5 of the segment's width) lands it off-centre so spins do not all look alike; it stays
 * inside the segment, so the pointer always shows the recorded result.
 */
export function landingRotation(current: number, arc: SegmentArc, offset = 0): number {
  const target = -(arc.middle + offset * arc.sweep);
  return current + TURNS * 360 + mod360(target - current);
}

/** The same rotation less its full turns, to keep numbers small between spins. */
export const settledRotation = mod360;
