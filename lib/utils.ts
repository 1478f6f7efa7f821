import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. It does not resolve conflicting utilities (no tailwind-merge: that would add
 * 9 kB to every page's JavaScript), so callers pick one class per property: `a ? "x" : "y"`.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}

/** Initials for an avatar: first letters of the first and last words of the name, else of the e-mail, else 'U'. */
export function initials(name: string | null | undefined, email: string | null | undefined): string {
  const source = name?.trim() || email?.split("@")[0]?.trim() || "User";
  const words = source.split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? words[0][0] + words[words.length - 1][0] : source.slice(0, 2);
  return letters.toUpperCase();
}

/** What the header shows for a user: the name, else the e-mail, else 'User' (spec §2). */
export function displayName(name: string | null | undefined, email: string | null | undefined): string {
  return name?.trim() || email?.trim() || "User";
}
