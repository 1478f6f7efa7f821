import { describe, expect, it } from "vitest";
import { exemptFromApproval, isAdminPath, needsSession, safeNextPath, underPrefix } from "@/lib/auth/paths";

describe("approval exemptions (spec §4)", () => {
  it("matches / exactly and the other entries as path prefixes", () => {
    expect(exemptFromApproval("/")).toBe(true);
    for (const path of [
      "/competitions",
      "/competitions/iphone-17",
      "/docs/legal/privacy-policy",
      "/blog/launch",
      "/winners",
      "/account",
      "/account/credits",
      "/pending-approval",
      "/logout",
      "/login",
      "/register",
      "/auth/callback",
      "/auth/reset-password",
      "/auth/confirm",
      "/competitions-demo",
      "/complaints",
    ]) {
      expect(exemptFromApproval(path), path).toBe(true);
    }
  });

  it("does not exempt paths that only share a prefix of characters", () => {
    for (const path of [
      "/labspinner",
      "/credit",
      "/admin",
      "/pricing",
      "/competitions-x",
      "/docsx",
      "/payment/competition",
    ]) {
      expect(exemptFromApproval(path), path).toBe(false);
    }
  });
});

describe("paths that need a session", () => {
  it("protects the account, admin, credit, payment and purchase screens", () => {
    for (const path of [
      "/account",
      "/account/profile",
      "/admin",
      "/admin/users/1",
      "/credit",
      "/payment/competition",
      "/purchase-success",
    ]) {
      expect(needsSession(path), path).toBe(true);
    }
  });

  it("leaves public pages, login and the auth callback open", () => {
    for (const path of [
      "/",
      "/login",
      "/auth/callback",
      "/competitions",
      "/docs",
      "/signup",
      "/accounts",
      "/creditors",
    ]) {
      expect(needsSession(path), path).toBe(false);
    }
  });

  it("knows the admin area", () => {
    expect(isAdminPath("/admin")).toBe(true);
    expect(isAdminPath("/admin/approvals")).toBe(true);
    expect(isAdminPath("/administrator")).toBe(false);
    expect(underPrefix("/docs/", "/docs")).toBe(true);
  });
});

describe("safeNextPath", () => {
  it("keeps a local path with its query", () => {
    expect(safeNextPath("/account/profile?tab=password")).toBe("/account/profile?tab=password");
  });

  it("refuses other origins and protocol-relative tricks", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      null,
      undefined,
    ]) {
      expect(safeNextPath(bad as string | null | undefined)).toBe("/account");
    }
  });

  it("accepts an absolute URL only on the given origin", () => {
    expect(safeNextPath("http://127.0.0.1:3100/auth/reset-password", "/account", "http://127.0.0.1:3100")).toBe(
      "/auth/reset-password",
    );
    expect(safeNextPath("http://evil.example/auth/reset-password", "/account", "http://127.0.0.1:3100")).toBe(
      "/account",
    );
    expect(safeNextPath("http://127.0.0.1:3100.evil.example/x", "/account", "http://127.0.0.1:3100")).toBe("/account");
  });

  it("never returns to the sign-in screens", () => {
    expect(safeNextPath("/login?next=/admin")).toBe("/account");
    expect(safeNextPath("/logout")).toBe("/account");
  });
});
