import type { SpinnerSegment } from "@/lib/data/spinner";
import { WHEEL_CENTRE, WHEEL_RADIUS, segmentMiddle, segmentPath } from "./wheel-geometry";

/** Labels start this far out from the centre (past the hub) and stop short of the rim. */
const LABEL_INNER = 48;
const LABEL_LENGTH = WHEEL_RADIUS - LABEL_INNER - 14;

/**
 * The wheel's face: equal segments clockwise from the top in position order, each label along its
 * radius in the label colour SQL checked for contrast. Decoration only (hidden from assistive
 * technology): the odds table says the same in words.
 */
export function WheelFace({
  segments,
}: {
  segments: Pick<SpinnerSegment, "position" | "label" | "colour" | "label_colour">[];
}) {
  const count = segments.length;
  return (
    <svg viewBox="0 0 400 400" aria-hidden focusable="false" className="block size-full">
      {segments.map((segment, index) => {
        const middle = segmentMiddle(index, count);
        // A long label shrinks to fit between the hub and the rim.
        const fontSize = Math.min(17, LABEL_LENGTH / (segment.label.length * 0.58));
        // Labels on the left half turn the other way round, so none reads upside down at rest.
        const leftHalf = middle > 180;
        const distance = LABEL_INNER + LABEL_LENGTH / 2 + 7;
        return (
          <g key={segment.position}>
            <path d={segmentPath(index, count)} fill={segment.colour} className="stroke-background" strokeWidth={2} />
            <text
              transform={`rotate(${leftHalf ? middle + 90 : middle - 90} ${WHEEL_CENTRE} ${WHEEL_CENTRE})`}
              x={WHEEL_CENTRE + (leftHalf ? -distance : distance)}
              y={WHEEL_CENTRE}
              fill={segment.label_colour}
              fontSize={fontSize}
              fontWeight={700}
              textAnchor="middle"
              dominantBaseline="central"
            >
              {segment.label}
            </text>
          </g>
        );
      })}
      <circle
        cx={WHEEL_CENTRE}
        cy={WHEEL_CENTRE}
        r={WHEEL_RADIUS}
        fill="none"
        className="stroke-border"
        strokeWidth={4}
      />
      <circle cx={WHEEL_CENTRE} cy={WHEEL_CENTRE} r={30} className="fill-card stroke-border" strokeWidth={4} />
    </svg>
  );
}
