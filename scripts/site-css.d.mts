/** Compiles app/globals.css and writes .generated/site-css.ts when it changed. */
export function writeSiteCss(): Promise<void>;
/** Writes the sheet again whenever a file under app/, components/, content/, lib/ or config/ changes. */
export function watchSiteCss(): void;
