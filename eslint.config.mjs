import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    // One home per thing (docs/decisions/010): lib/ and supabase/ hold rules, schemas and data access; components/
    // holds UI only, so nothing below the UI may depend on it.
    files: ["lib/**/*.{ts,tsx}", "supabase/**/*.{ts,tsx,mjs}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/components(/|$)|(\\.\\./)+components(/|$))",
              message: "lib/ and supabase/ must not import UI: move what is shared into lib/<area>/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Links prefetch on intent (components/ui/link.tsx says why): next/link itself would prefetch every link in view.
    // The stylesheet is written into the document (scripts/site-css.mjs): an imported .css file would bring back a
    // render-blocking <link>. Toasts are raised through useToast, which loads sonner's region only on pages that raise them.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    ignores: ["components/ui/link.tsx", "components/ui/toast.ts", "components/layout/toast-region.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "next/link", message: "Use Link from @/components/ui/link: it prefetches on intent." },
            { name: "sonner", message: "Use useToast from @/components/ui/toast: it loads the toast region." },
          ],
          patterns: [
            {
              group: ["*.css"],
              message: "Styles come from app/globals.css through scripts/site-css.mjs; a CSS import links a sheet.",
            },
          ],
        },
      ],
    },
  },
  {
    // Every server log line is one structured JSON line (lib/observability/log.ts, the one writer), so a log search
    // can filter by event and request id and nothing secret slips out unscrubbed. The browser's hooks may use the
    // console: their lines stay in the visitor's browser.
    files: ["lib/**/*.{ts,tsx}", "app/**/*.ts", "proxy.ts", "instrumentation*.ts"],
    ignores: ["lib/observability/log.ts", "lib/hooks/**"],
    rules: { "no-console": ["error"] },
  },
  {
    // A workspace package stands alone (docs/decisions/042): the app configures it
    // through options and the environment, so nothing in it may import the app, by alias or by a path out of it
    // (two levels up leaves a package from its src/ and tests/).
    files: ["packages/*/**/*.{ts,tsx,mjs}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|(\\.\\./){2,})",
              message:
                "A package imports nothing from the app: take what it needs as an option or an environment variable.",
            },
          ],
        },
      ],
    },
  },
  globalIgnores([
    ".next/**",
    ".data/**",
    ".content-collections/**",
    ".generated/**",
    "node_modules/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
  ]),
]);
