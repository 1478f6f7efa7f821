// The settings the embedded backend's process reads from its environment: a misspelt one is refused with a
// message naming it, never silently read as the default.
import { expect, it } from "vitest";
import { EnvironmentError, optionsFromEnvironment } from "../src/cli";

it("turns GoTrue's captcha on with EMBEDDED_CAPTCHA_SECRET, Turnstile unless hCaptcha is named", () => {
  expect(optionsFromEnvironment({}).captcha).toBeUndefined();
  expect(optionsFromEnvironment({ EMBEDDED_CAPTCHA_SECRET: "s3cret" }).captcha).toEqual({
    provider: "turnstile",
    secret: "s3cret",
  });
  expect(
    optionsFromEnvironment({ EMBEDDED_CAPTCHA_SECRET: "s3cret", EMBEDDED_CAPTCHA_PROVIDER: "hCaptcha" }).captcha,
  ).toEqual({ provider: "hcaptcha", secret: "s3cret" });
});

it("refuses a captcha provider it does not know, saying what to set", () => {
  for (const provider of ["hcapcha", "recaptcha", "turnstyle"]) {
    const read = () =>
      optionsFromEnvironment({ EMBEDDED_CAPTCHA_SECRET: "s3cret", EMBEDDED_CAPTCHA_PROVIDER: provider });
    expect(read).toThrow(EnvironmentError);
    expect(read).toThrow(
      `EMBEDDED_CAPTCHA_PROVIDER must be turnstile or hcaptcha (GoTrue's [auth.captcha] providers), not "${provider}".`,
    );
  }
});

it("hashes passwords at GoTrue's cost unless EMBEDDED_PASSWORD_HASH_COST asks for the quick one", () => {
  expect(optionsFromEnvironment({}).passwordHashCost).toBe("default");
  expect(optionsFromEnvironment({ EMBEDDED_PASSWORD_HASH_COST: "Quick" }).passwordHashCost).toBe("quick");
  expect(() => optionsFromEnvironment({ EMBEDDED_PASSWORD_HASH_COST: "4" })).toThrow(
    'EMBEDDED_PASSWORD_HASH_COST must be quick or default, not "4".',
  );
});
