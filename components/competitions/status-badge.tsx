import { cn } from "@/lib/utils";
import { phaseLabel, type Phase } from "./status";

const tones = {
  primary: "border-primary/30 bg-background text-primary-text",
  neutral: "border-border bg-muted text-foreground",
  warning: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50",
  danger: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-50",
} as const;

const phaseTone: Record<Phase, keyof typeof tones> = {
  draft: "warning",
  live: "primary",
  upcoming: "neutral",
  awaiting_draw: "warning",
  drawn: "neutral",
  closed: "neutral",
  cancelled: "danger",
};

/** A status pill; solid backgrounds so it stays readable on top of an image. */
export function StatusBadge({ phase, tone, children, className }: { phase?: Phase; tone?: keyof typeof tones; children?: React.ReactNode; className?: string }) {
  const t = tone ?? (phase ? phaseTone[phase] : "neutral");
  return (
    <span className={cn("inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold shadow-sm", tones[t], className)}>
      {children ?? (phase ? phaseLabel[phase] : null)}
    </span>
  );
}
