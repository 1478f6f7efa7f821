import { describe, expect, it } from "vitest";
import { gatedBySecondStep, secondStepMayBeOwed, secondStepRedirect } from "@/lib/auth/second-step";

const request = (path: string, init: { method?: string; headers?: Record<string, string> } = {}) => {
  const url = new URL(path, "https://labcash.test");
  return {
    url: url.href,
    method: init.method ?? "GET",
    headers: new Headers(init.headers),
    nextUrl: { pathname: url.pathname, search: url.search },
  };
};

describe("the pages a session that owes its second step is sent away from", () => {
  it("gates the account area (but the code step), credit, payments and the player's own history", () => {
    for (const path of [
      "/account",
      "/account/profile",
      "/account/credits/export",
      "/credit",
      "/payment/competition",
      "/purchase-success",
      "/pending-approval",
      "/labspinner/verify",
    ]) {
      expect(gatedBySecondStep(path), path).toBe(true);
    }
  });

  it("leaves the code step, signing out, public pages, admin pages (their own rule) and route handlers alone", () => {
    for (const path of [
      "/account/two-step",
      "/logout",
      "/login",
      "/",
      "/competitions/a-prize",
      "/labspinner",
      "/complaints",
      "/admin",
      "/api/session/header",
      "/accounts",
    ]) {
      expect(gatedBySecondStep(path), path).toBe(false);
    }
  });
});

describe("secondStepMayBeOwed", () => {
  it("asks only for a page request on a gated path by a session that is not aal2", () => {
    expect(secondStepMayBeOwed(request("/account"), "aal1")).toBe(true);
    expect(secondStepMayBeOwed(request("/credit", { method: "HEAD" }), undefined)).toBe(true);
    expect(secondStepMayBeOwed(request("/account"), "aal2")).toBe(false);
    expect(secondStepMayBeOwed(request("/account/two-step"), "aal1")).toBe(false);
    expect(secondStepMayBeOwed(request("/competitions/x"), "aal1")).toBe(false);
  });

  it("leaves server actions to refuse themselves (their refusal links to the code step)", () => {
    const action = request("/account/profile", { method: "POST", headers: { "next-action": "abc" } });
    expect(secondStepMayBeOwed(action, "aal1")).toBe(false);
    expect(secondStepMayBeOwed(request("/account/profile", { method: "POST" }), "aal1")).toBe(false);
  });

  it("sends the request to the code step, coming back with its query", () => {
    const to = secondStepRedirect(request("/account/credits?kind=top_up"));
    expect(to.pathname + to.search).toBe("/account/two-step?next=%2Faccount%2Fcredits%3Fkind%3Dtop_up");
    expect(to.origin).toBe("https://labcash.test");
  });
});
