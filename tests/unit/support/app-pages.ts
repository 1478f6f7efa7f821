import { readdirSync } from "node:fs";
import path from "node:path";

/** The app directory. */
export const APP_DIR = path.resolve(import.meta.dirname, "../../../app");

/** Every page.tsx under app/, relative to it (e.g. "(account)/account/entries/page.tsx"). */
export function appPageFiles(): string[] {
  return (readdirSync(APP_DIR, { recursive: true }) as string[]).filter((file) => /(^|\/)page\.tsx$/.test(file));
}

/** The URL a page file answers on: route groups dropped, each dynamic segment as "x". */
export function pageUrl(file: string): string {
  return (
    "/" +
    path
      .dirname(file)
      .split("/")
      .filter((part) => part !== "." && !/^\(.*\)$/.test(part))
      .map((part) => part.replace(/^\[+\.*(.*?)\]+$/, "x"))
      .join("/")
  );
}
