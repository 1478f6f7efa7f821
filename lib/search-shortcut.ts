// The search palette's shortcut hint, pure (the header's search button bundles it; keep it tiny).

/** Apple keyboards show ⌘K; everything else Ctrl K (the navigator's platform, or its user agent). */
export function searchShortcut(platform: string): { label: string; keys: string } {
  return /Mac|iPhone|iPad|iPod/i.test(platform)
    ? { label: "⌘K", keys: "Meta+K" }
    : { label: "Ctrl K", keys: "Control+K" };
}
