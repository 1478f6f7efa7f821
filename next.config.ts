import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // forbidden() for the admin guard in layouts and actions (renders app/forbidden.tsx with 403).
  experimental: { authInterrupts: true },
  serverExternalPackages: ["@electric-sql/pglite", "ws"],
  poweredByHeader: false,
  // /register is named in the approval exemptions (spec §4); sign-up lives at /signup.
  async redirects() {
    return [{ source: "/register", destination: "/signup", permanent: true }];
  },
};

export default nextConfig;
