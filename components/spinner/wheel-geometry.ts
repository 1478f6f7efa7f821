// The wheel's drawing and landing, in degrees clockwise from the top (where the pointer is).
// Every segment is drawn the same size; its chance is its weight, published in the odds table.

/** The centre and radius of the wheel in its SVG's 400 × 400 viewBox. */
export const WHEEL_CENTRE = 200;
export const WHEEL_RADIUS = 194;

/** Full turns before the wheel settles, so a spin reads as a spin. */
const TURNS = 6;

/** A point at `radius` from the centre, `degrees` clockwise from the top. */
function point(degrees: number, radius: number): [number, number] {
  const radians = (degrees * Math.PI) / 180;
  return [WHEEL_CENTRE + radius * Math.sin(radians), WHEEL_CENTRE - radius * Math.cos(radians)];
}

/** The SVG path of segment `index` (0-based) of `count`. */
export function segmentPath(index: number, count: number): string {
  const sweep = 360 / count;
  const [x0, y0] = point(index * sweep, WHEEL_RADIUS);
  const [x1, y1] = point((index + 1) * sweep, WHEEL_RADIUS);
  const largeArc = sweep > 180 ? 1 : 0;
  const r = WHEEL_RADIUS;
  return `M ${WHEEL_CENTRE} ${WHEEL_CENTRE} L ${x0.toFixed(3)} ${y0.toFixed(3)} A ${r} ${r} 0 ${largeArc} 1 ${x1.toFixed(3)} ${y1.toFixed(3)} Z`;
}

/** The angle of segment `index`'s middle line (0-based). */
export function segmentMiddle(index: number, count: number): number {
  return (index + 0.5) * (360 / count);
}

const mod360 = (degrees: number) => ((degrees % 360) + 360) % 360;

/**
 * The rotation that brings `position` (1-based) under the pointer after a few full turns from
 * `current`. `offset` (-0.5 to 0.5 of a segment) lands it off-centre so spins do not all look alike;
 * it stays inside the segment, so the pointer always shows the recorded result.
 */
export function landingRotation(current: number, position: number, count: number, offset = 0): number {
  const sweep = 360 / count;
  const target = -(segmentMiddle(position - 1, count) + offset * sweep);
  return current + TURNS * 360 + mod360(target - current);
}

/** The same rotation less its full turns, to keep numbers small between spins. */
export const settledRotation = mod360;
