import type { Metadata, Viewport } from "next";
import { siteConfig, homeTitle, titleTemplate } from "@/config/site";
import { env } from "@/lib/env";
import { canonicalOrigin } from "@/lib/site-url";
import { documentScript } from "@/lib/document-script";
import { ThemeProvider } from "@/components/theme/theme-provider";
import { Toaster } from "./toaster";
import { Analytics } from "./analytics";
import { TestPaymentsBanner } from "./test-payments-banner";
import { InstallApp } from "./install-app";
import { SiteStylesheet } from "./site-stylesheet";

// The HTML document around every page: the root layout's, and app/global-not-found.tsx's (which
// Next renders without the root layout).

export const documentMetadata: Metadata = {
  metadataBase: new URL(canonicalOrigin()),
  title: { default: homeTitle, template: titleTemplate },
  description: siteConfig.description,
  applicationName: siteConfig.name,
  openGraph: { type: "website", siteName: siteConfig.name, locale: "en_GB" },
  twitter: { card: "summary_large_image" },
  icons: { icon: "/icon.svg", apple: "/apple-touch-icon.png" },
};

export const documentViewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#020617" },
  ],
};

export function Document({ children }: { children: React.ReactNode }) {
  // Vercel serves the analytics script only to deployments on Vercel; elsewhere loading it
  // would just 404. LABCASH_ANALYTICS=1 turns it on anyway (the e2e run tests its failure path).
  const analyticsEnabled = env().VERCEL || env().LABCASH_ANALYTICS;
  return (
    // The document script sets data-session when a session cookie is present (lib/auth/session-cookie.ts),
    // so the static pages' personal islands never flash the signed-out state, and the colour-mode class
    // and colour-scheme that next-themes then keeps (lib/document-script.ts). A constant: the strict
    // CSP of the per-request pages allows it by hash.
    <html lang="en-GB" suppressHydrationWarning>
      <body className="min-h-dvh bg-background text-foreground antialiased">
        <SiteStylesheet />
        {/* First in <body>: it runs before the header is parsed, so before the first paint. */}
        <script dangerouslySetInnerHTML={{ __html: documentScript }} />
        <TestPaymentsBanner />
        <ThemeProvider>
          {children}
          <Toaster />
          <InstallApp />
        </ThemeProvider>
        {analyticsEnabled && <Analytics />}
      </body>
    </html>
  );
}
