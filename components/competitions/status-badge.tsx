import { cn } from "@/lib/utils";
import { phaseLabel, type Phase } from "@/lib/competitions/status";

const tones = {
  primary: "border-primary/30 bg-background text-primary-text",
  neutral: "border-border bg-muted text-foreground",
  warning: "border-warning/40 bg-warning-soft text-warning-soft-foreground",
  danger: "border-destructive/30 bg-destructive-soft text-destructive-soft-foreground",
} as const;

const phaseTone: Record<Phase, keyof typeof tones> = {
  draft: "warning",
  live: "primary",
  upcoming: "neutral",
  postal_window: "warning",
  awaiting_draw: "warning",
  drawn: "neutral",
  closed: "neutral",
  cancelled: "danger",
};

/** A status pill; solid backgrounds so it stays readable on top of an image. */
export function StatusBadge({
  phase,
  tone,
  children,
  className,
}: {
  phase?: Phase;
  tone?: keyof typeof tones;
  children?: React.ReactNode;
  className?: string;
}) {
  const t = tone ?? (phase ? phaseTone[phase] : "neutral");
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold shadow-sm",
        tones[t],
        className,
      )}
    >
      {children ?? (phase ? phaseLabel[phase] : null)}
    </span>
  );
}
