/** Confetti for a moment worth it; nothing at all when the device asks for reduced motion. */
export async function celebrate() {
  if (typeof window === "undefined" || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const { default: confetti } = await import("canvas-confetti");
  const colors = ["#15803d", "#22c55e", "#86efac", "#facc15", "#ffffff"];
  await Promise.all([
    confetti({ particleCount: 110, spread: 70, origin: { y: 0.7 }, colors, disableForReducedMotion: true }),
    confetti({
      particleCount: 50,
      angle: 60,
      spread: 55,
      origin: { x: 0, y: 0.8 },
      colors,
      disableForReducedMotion: true,
    }),
    confetti({
      particleCount: 50,
      angle: 120,
      spread: 55,
      origin: { x: 1, y: 0.8 },
      colors,
      disableForReducedMotion: true,
    }),
  ]);
}
