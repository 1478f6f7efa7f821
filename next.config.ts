import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // forbidden() for the admin guard in layouts and actions (renders app/forbidden.tsx with 403).
  experimental: { authInterrupts: true },
  serverExternalPackages: ["@electric-sql/pglite", "ws"],
  poweredByHeader: false,
};

export default nextConfig;
