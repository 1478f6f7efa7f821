"use client";

import { createContext, use, useCallback, useMemo, useRef, type ReactNode } from "react";
import { landingRotation, segmentArcs, settledRotation } from "@/lib/spinner/wheel-geometry";

/** How long a spin takes; the wheel eases out so the last turn is slow enough to follow. */
const SPIN_MS = 4_200;
const SPIN_EASING = "cubic-bezier(0.12, 0.75, 0.15, 1)";

type Stage = {
  /** Scrolls the wheel into view if any of it is off screen, so a spin is seen rather than only announced. */
  bringIntoView(): void;
  /** Brings the wheel into view and turns it until `position` (1-based) is under the pointer; resolves once it rests there. */
  spinTo(position: number): Promise<void>;
};

const StageContext = createContext<Stage | null>(null);

/** The spin controls in the panel turn the wheel drawn beside them. */
export function useSpinnerStage(): Stage {
  const stage = use(StageContext);
  if (!stage) throw new Error("useSpinnerStage needs a <SpinnerStage> around it");
  return stage;
}

function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A random landing spot inside the segment, -0.35..0.35 of its width (cosmetic only: the result is already fixed). */
function landingOffset() {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return (n / 2 ** 32 - 0.5) * 0.7;
}

/**
 * Holds the wheel (the server-drawn face, `wheel`) and the controls that spin it (`children`). The
 * wheel turns by a CSS transform on its own layer through the Web Animations API, so the browser's
 * compositor runs it without the main thread; under reduced motion it jumps straight to the result.
 */
export function SpinnerStage({
  wheel,
  weights,
  label,
  children,
}: {
  wheel: ReactNode;
  /** The segments' weights in position order: the face draws each as wide as its chance. */
  weights: readonly number[];
  /** What the wheel is, for assistive technology (the face itself is decoration). */
  label: string;
  children: ReactNode;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const rotor = useRef<HTMLDivElement>(null);
  const rotation = useRef(0);
  const arcs = useMemo(() => segmentArcs(weights), [weights]);

  // "nearest" scrolls only when part of the wheel is off screen, and no further than needed; the frame's scroll
  // margin keeps the pointer clear of the sticky site header.
  const bringIntoView = useCallback(() => {
    frame.current?.scrollIntoView({ block: "nearest", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }, []);

  const spinTo = useCallback(
    async (position: number) => {
      const element = rotor.current;
      if (!element) return;
      bringIntoView();
      const from = rotation.current;
      const to = landingRotation(from, arcs[position - 1], landingOffset());
      rotation.current = settledRotation(to);
      // The resting transform is set first, so the wheel stays put when the animation ends.
      element.style.transform = `rotate(${rotation.current}deg)`;
      if (prefersReducedMotion()) return;
      const spin = element.animate([{ transform: `rotate(${from}deg)` }, { transform: `rotate(${to}deg)` }], {
        duration: SPIN_MS,
        easing: SPIN_EASING,
      });
      try {
        await spin.finished;
      } catch {
        // Cancelled (the page went away): nothing to wait for.
      }
    },
    [arcs, bringIntoView],
  );
  const stage = useMemo(() => ({ bringIntoView, spinTo }), [bringIntoView, spinTo]);

  return (
    <StageContext value={stage}>
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] lg:gap-10">
        {/* On a phone the wheel is sized to leave the Spin button below it on the first screen. */}
        <div
          ref={frame}
          role="img"
          aria-label={label}
          className="relative mx-auto w-full max-w-[min(28rem,30svh)] scroll-mt-20 scroll-mb-4 lg:max-w-md"
        >
          {/* The pointer stays still at the top; the wheel turns beneath it. */}
          <svg
            viewBox="0 0 40 36"
            aria-hidden
            focusable="false"
            className="absolute -top-2 left-1/2 z-10 w-10 -translate-x-1/2 drop-shadow"
          >
            <path d="M4 2 H36 L20 34 Z" className="fill-foreground stroke-background" strokeWidth={3} />
          </svg>
          <div ref={rotor} className="aspect-square w-full rounded-full will-change-transform">
            {wheel}
          </div>
        </div>
        <div className="min-w-0">{children}</div>
      </div>
    </StageContext>
  );
}
