// The one inline script every page carries, first in <body> (components/layout/document.tsx), so it
// runs before the first paint. A constant, so the strict Content-Security-Policy of the per-request
// pages allows it by its hash (lib/http/security-headers.ts) while the cached pages, which cannot
// carry a per-request nonce, serve it unchanged.
import { sessionMarkerScript } from "./auth/session-cookie";

/**
 * The colour mode before the first paint: what next-themes' own inline script does with this site's
 * settings (components/theme/theme-provider.tsx: class attribute, storage key "theme", default
 * "system", light and dark), written out here because next-themes builds its script from its bundled
 * source, whose text (and so hash) the server cannot know in advance. next-themes' script is left
 * inert (a JSON data block) and its provider does the rest once hydrated.
 */
export const themeScript =
  `try{var d=document.documentElement,t=localStorage.getItem("theme")||"system";` +
  `if(t==="system")t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";` +
  `d.classList.remove("light","dark");d.classList.add(t);` +
  `if(t==="light"||t==="dark")d.style.colorScheme=t}catch(e){}`;

/** Where the install prompt waits for the install offer (components/layout/install-offer.tsx). */
export const INSTALL_PROMPT_GLOBAL = "labcashInstallPrompt";

/**
 * Keeps the browser's install prompt (`beforeinstallprompt`, Chromium's, fired once a page) for the install offer,
 * which loads only once the page is idle, and stops the browser's own install banner, as the offer replaces it.
 */
export const installPromptScript = `addEventListener("beforeinstallprompt",function(e){e.preventDefault();window.${INSTALL_PROMPT_GLOBAL}=e})`;

/** The session marker (lib/auth/session-cookie.ts), the colour mode, then the install prompt's keeper. */
export const documentScript = `${sessionMarkerScript};${themeScript};${installPromptScript}`;
