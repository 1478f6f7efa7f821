import type { SpinnerSegment } from "@/lib/data/spinner";
import {
  LABEL_OUTER,
  WHEEL_CENTRE,
  WHEEL_RADIUS,
  labelFontSize,
  segmentArcs,
  segmentPath,
} from "@/lib/spinner/wheel-geometry";

/**
 * The wheel's face: segments clockwise from the top in position order, each as wide as its chance, each
 * label along its radius towards the rim in the label colour SQL checked for contrast. Decoration only
 * (hidden from assistive technology): the odds table says the same in words.
 */
export function WheelFace({
  segments,
}: {
  segments: Pick<SpinnerSegment, "position" | "label" | "colour" | "label_colour" | "weight">[];
}) {
  const arcs = segmentArcs(segments.map((segment) => segment.weight));
  return (
    <svg viewBox="0 0 400 400" aria-hidden focusable="false" className="block size-full">
      {segments.map((segment, index) => {
        const arc = arcs[index];
        const fontSize = labelFontSize(arc.sweep, segment.label.length);
        // Labels on the left half turn the other way round, so none reads upside down at rest; either
        // way the text ends near the rim, where a thin slice is widest.
        const leftHalf = arc.middle > 180;
        return (
          <g key={segment.position}>
            <path d={segmentPath(arc)} fill={segment.colour} className="stroke-background" strokeWidth={1.5} />
            {fontSize === null ? null : (
              <text
                transform={`rotate(${leftHalf ? arc.middle + 90 : arc.middle - 90} ${WHEEL_CENTRE} ${WHEEL_CENTRE})`}
                x={WHEEL_CENTRE + (leftHalf ? -LABEL_OUTER : LABEL_OUTER)}
                y={WHEEL_CENTRE}
                fill={segment.label_colour}
                fontSize={fontSize}
                fontWeight={700}
                textAnchor={leftHalf ? "start" : "end"}
                dominantBaseline="central"
              >
                {segment.label}
              </text>
            )}
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
