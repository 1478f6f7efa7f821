import type { Metadata, Viewport } from "next";
import { siteConfig, homeTitle, titleTemplate } from "@/config/site";
import { env } from "@/lib/env";
import { canonicalOrigin } from "@/lib/site-url";
import { ThemeProvider } from "@/components/theme/theme-provider";
import { Toaster } from "@/components/layout/toaster";
import { Analytics } from "@/components/layout/analytics";
import "./globals.css";

// Vercel serves the analytics script only to deployments on Vercel; elsewhere loading it
// would just 404. LABCASH_ANALYTICS=1 turns it on anyway (the e2e run tests its failure path).
const analyticsEnabled = env().VERCEL || env().LABCASH_ANALYTICS;

export const metadata: Metadata = {
  metadataBase: new URL(canonicalOrigin()),
  title: { default: homeTitle, template: titleTemplate },
  description: siteConfig.description,
  applicationName: siteConfig.name,
  openGraph: { type: "website", siteName: siteConfig.name, locale: "en_GB" },
  twitter: { card: "summary_large_image" },
  icons: { icon: "/icon.svg" },
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#020617" },
  ],
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    // next-themes sets the class and colour-scheme on <html> before hydration.
    <html lang="en-GB" suppressHydrationWarning>
      <body className="min-h-dvh bg-background text-foreground antialiased">
        <ThemeProvider>
          {children}
          <Toaster />
        </ThemeProvider>
        {analyticsEnabled && <Analytics />}
      </body>
    </html>
  );
}
