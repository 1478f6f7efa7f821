import type { Locator, Page } from "@playwright/test";
import { expectAccessibleInBothSchemes } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { SignUpPage } from "./support/pages/sign-up";
import { uniqueEmail } from "./support/users";

// A refused form keeps what was typed, shows one message beside the field it is about
// (aria-invalid, aria-describedby) and no form-level copy of it, and moves focus to that field.

const UNDER_18 = "You must be 18 or over to join LabCash";
const yearsAgo = (years: number) => `${new Date().getUTCFullYear() - years}-01-01`;

/** `field` is marked invalid and described by `message`, which it alone shows. */
async function expectFieldMessage(field: Locator, message: string | RegExp) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(message);
}

async function expectFieldFine(field: Locator) {
  await expect(field).not.toHaveAttribute("aria-invalid", "true");
}

function signUpFields(page: Page) {
  return {
    name: page.getByLabel("Full name"),
    email: page.getByLabel("E-mail", { exact: true }),
    password: page.getByLabel("Password", { exact: true }),
    dateOfBirth: page.getByLabel("Date of birth"),
    terms: page.getByLabel(/I am 18 or over/),
    marketing: page.getByLabel("E-mail me about new competitions and results"),
    create: page.getByRole("button", { name: "Create account" }),
  };
}

test.describe("sign-up keeps what was typed", () => {
  test("a weak password keeps name, e-mail, date of birth and the ticked boxes; its message is beside it alone", async ({
    page,
  }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    const f = signUpFields(page);
    const email = uniqueEmail("keep");
    await f.name.fill("Kept Typing");
    await f.email.fill(email);
    await f.password.fill("short");
    await f.dateOfBirth.fill("1990-05-06");
    await f.terms.check();
    await f.marketing.check();
    await f.create.click();

    await expectFieldMessage(f.password, /Password is too weak: Use at least 8 characters.*Include a digit/);
    await expect(f.password).toBeFocused();
    await expect(f.name).toHaveValue("Kept Typing");
    await expect(f.email).toHaveValue(email);
    await expect(f.dateOfBirth).toHaveValue("1990-05-06");
    await expect(f.terms).toBeChecked();
    await expect(f.marketing).toBeChecked();
    for (const other of [f.name, f.email, f.dateOfBirth, f.terms]) await expectFieldFine(other);
    // The message is not repeated as a form-level alert.
    await expect(signUp.alert).toHaveCount(0);

    // Corrected, it goes through with what was kept.
    await f.password.fill("Brand-new-1");
    await f.create.click();
    await expect(page).toHaveURL(/\/pending-approval$/);
  });

  test("a missing date of birth and an unticked box each get their own message", async ({ page }) => {
    await new SignUpPage(page).goto();
    const f = signUpFields(page);
    await f.name.fill("No Birthday");
    await f.email.fill(uniqueEmail("nodob"));
    await f.password.fill("Brand-new-1");
    await f.create.click();

    await expectFieldMessage(f.dateOfBirth, "You must be 18 or over to take part. Enter your date of birth");
    await expectFieldMessage(f.terms, "Please accept the terms and conditions");
    await expect(page.getByText(UNDER_18)).toHaveCount(0);
    await expect(f.dateOfBirth).toBeFocused();
    await expect(f.password).toHaveValue("Brand-new-1");
  });

  test("an under-18 date of birth says so beside the date only", async ({ page }) => {
    await new SignUpPage(page).goto();
    const f = signUpFields(page);
    await f.name.fill("Young Person");
    await f.email.fill(uniqueEmail("young"));
    await f.password.fill("Brand-new-1");
    await f.dateOfBirth.fill(yearsAgo(16));
    await f.terms.check();
    await f.create.click();

    await expectFieldMessage(f.dateOfBirth, `You must be 18 or over to take part. ${UNDER_18}`);
    await expect(page.getByText("Enter your date of birth")).toHaveCount(0);
    await expectFieldFine(f.terms);
    await expect(f.terms).toBeChecked();
    await expect(f.name).toHaveValue("Young Person");
  });

  for (const viewport of [
    { name: "phone", width: 390, height: 844 },
    { name: "desktop", width: 1280, height: 900 },
  ]) {
    test(`sign-up with its messages showing has no axe violations in light and dark mode on a ${viewport.name}`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await new SignUpPage(page).goto();
      const f = signUpFields(page);
      await f.password.fill("short");
      await f.create.click();
      await expectFieldMessage(f.terms, "Please accept the terms and conditions");
      await expectAccessibleInBothSchemes(page);
    });
  }
});

/**
 * Every other form, refused once for one field: `fill` is typed first, then `wrong`; after the refusal each
 * value in `fill` is still there and `wrong`'s message is beside it.
 */
type FormCase = {
  form: string;
  as: "visitor" | "player" | "admin";
  path: (user: { id: string }) => string;
  /** Narrows the page to the form (several forms share labels on some pages). */
  within?: (page: Page) => Locator;
  fill: [label: string, value: string][];
  wrong: [label: string, value: string, message: string | RegExp];
  submit: string;
};

const CASES: FormCase[] = [
  {
    form: "sign-in",
    as: "visitor",
    path: () => "/login",
    fill: [["Password", "Some-password-1"]],
    wrong: ["E-mail", "not-an-address", "Enter a valid e-mail address"],
    submit: "Sign in",
  },
  {
    form: "profile",
    as: "player",
    path: () => "/account/profile",
    within: (page) => page.getByRole("main"),
    fill: [["Town (optional)", "Harrogate"]],
    wrong: ["Name", "x".repeat(101), /Keep your name under 100 characters$/],
    submit: "Save profile",
  },
  {
    form: "password change",
    as: "player",
    path: () => "/account/profile",
    fill: [["Current password", "Whatever-it-was-1"]],
    wrong: ["New password", "weak", /Password is too weak/],
    submit: "Change password",
  },
  {
    form: "complaint",
    as: "player",
    path: () => "/account/complaints",
    within: (page) => page.getByRole("main"),
    fill: [["Details", "The draw happened before the published time, which I think is unfair."]],
    wrong: ["Subject", "x", /Enter a subject of at least 3 characters$/],
    submit: "Send complaint",
  },
  {
    form: "credit adjustment",
    as: "admin",
    path: (user) => `/admin/users/${user.id}/edit`,
    within: (page) => page.getByRole("form", { name: "Adjust credit" }),
    fill: [["Reason", "Goodwill for a late draw"]],
    wrong: ["Amount (£)", "lots", /Enter an amount in pounds and pence, such as 10 or -2\.50$/],
    submit: "Adjust credit",
  },
  {
    form: "mail compose",
    as: "admin",
    path: () => "/admin/mail",
    fill: [["Message", "Our winter competitions open next week, with new prizes."]],
    wrong: ["Subject", "x", /Give a subject of 3 to 120 characters$/],
    submit: "Preview",
  },
  {
    form: "settings",
    as: "admin",
    path: () => "/admin/settings",
    fill: [["Promoter's name", "Kept Promotions Ltd"]],
    wrong: ["Stamp price (£)", "free", /Enter the stamp price in pounds and pence, such as 0.87$/],
    submit: "Save settings",
  },
];

for (const c of CASES) {
  test(`the ${c.form} form keeps what was typed after a refusal, with the message beside its field`, async ({
    page,
    admin,
    approvedAccount,
  }) => {
    let view = page;
    if (c.as === "admin") view = admin;
    if (c.as === "player") {
      await view.goto("/login");
      await view.getByLabel("E-mail", { exact: true }).fill(approvedAccount.email);
      await view.getByLabel("Password", { exact: true }).fill(approvedAccount.password);
      await view.getByRole("button", { name: "Sign in" }).click();
      await expect(view).toHaveURL(/\/account$/);
    }
    await view.goto(c.path(approvedAccount));
    const scope = c.within?.(view) ?? view;
    const field = (label: string) => scope.getByLabel(label, { exact: true });
    for (const [label, value] of c.fill) await field(label).fill(value);
    const [wrongLabel, wrongValue, message] = c.wrong;
    await field(wrongLabel).fill(wrongValue);
    await scope.getByRole("button", { name: c.submit, exact: true }).click();

    await expect(field(wrongLabel)).toHaveAttribute("aria-invalid", "true");
    await expect(field(wrongLabel)).toHaveAccessibleDescription(message);
    await expect(field(wrongLabel)).toBeFocused();
    await expect(field(wrongLabel)).toHaveValue(wrongValue);
    for (const [label, value] of c.fill) {
      await expect(field(label)).toHaveValue(value);
      await expectFieldFine(field(label));
    }
  });
}
