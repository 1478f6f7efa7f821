import { describe, expect, it } from "vitest";
import { formInput, parseForm } from "@/lib/actions/action";
import { recordCharityDonationAction } from "@/lib/actions/admin-charities";
import {
  CHARITY_MESSAGES,
  createCompetitionSchema,
  updateCompetitionSchema,
} from "@/lib/competitions/competition-fields";
import {
  CHOOSE_PROOF,
  PROOF_TOO_LARGE,
  proofNameOf,
  proofPathOf,
  proofTypeOf,
  sniffProofType,
} from "@/lib/charities/proofs";
import { londonDay } from "@/lib/time/london";

// The charity partner on the competition form and the donation form: what the browser posts, what SQL is sent.

const ID = "6a1f0a4e-1111-4222-8333-944455556666";

/** A new competition that is right in every other field. */
const COMPETITION = {
  title: "A charity prize",
  prize_description: "A prize",
  prize_value: "100",
  ticket_price: "1",
  total_tickets: "100",
  max_tickets_per_user: "10",
  ticket_numbering: "in_order",
  closes_at: "2026-12-03T10:00",
};

const posted = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return formInput(form);
};

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));

const created = (fields: Record<string, string>) =>
  createCompetitionSchema.safeParse(posted({ ...COMPETITION, ...fields }));

describe("the competition form's charity partner", () => {
  it("sends charity null when none is chosen, or when no terms were ticked on the new form", () => {
    const forms: Record<string, string>[] = [
      { charity_terms: "none", charity_name: "Left over", charity_number: "x" },
      {},
    ];
    for (const fields of forms) {
      const result = created(fields);
      expect(result.success).toBe(true);
      expect(result.data?.charity).toBeNull();
    }
  });

  it("sends a share as text, the number without spaces and in capitals, and an empty website as null", () => {
    const result = created({
      charity_terms: "share",
      charity_name: " Shelter ",
      charity_number: " sc 012345 ",
      charity_website: "",
      charity_revenue_percent: "12.5",
      charity_fixed_amount: "999",
    });
    expect(result.data?.charity).toEqual({
      name: "Shelter",
      registered_number: "SC012345",
      website: null,
      revenue_percent: "12.5",
    });
  });

  it("sends a fixed sum as text, never as a number", () => {
    const result = created({
      charity_terms: "fixed",
      charity_name: "Oxfam",
      charity_number: "202918",
      charity_website: "https://www.oxfam.org.uk/",
      charity_revenue_percent: "50",
      charity_fixed_amount: "499.90",
    });
    expect(result.data?.charity).toEqual({
      name: "Oxfam",
      registered_number: "202918",
      website: "https://www.oxfam.org.uk/",
      fixed_amount: "499.90",
    });
  });

  it("accepts the three registers' numbers", () => {
    for (const number of ["123456", "1234567", "SC123456", "NIC123456", "nic 123 456"]) {
      const result = created({
        charity_terms: "fixed",
        charity_name: "A charity",
        charity_number: number,
        charity_fixed_amount: "1",
      });
      expect(messages(result), number).toEqual({});
    }
  });

  it("puts each wrong field's message beside it, together with the rest of the form's", () => {
    const result = createCompetitionSchema.safeParse(
      posted({
        ...COMPETITION,
        title: "",
        charity_terms: "share",
        charity_name: "A",
        charity_number: "12345",
        charity_website: "http://example.org",
        charity_revenue_percent: "100.5",
      }),
    );
    expect(messages(result)).toEqual({
      title: "Give a title of 3 to 120 characters",
      charity_name: CHARITY_MESSAGES.name,
      charity_number: CHARITY_MESSAGES.number,
      charity_website: CHARITY_MESSAGES.website,
      charity_revenue_percent: CHARITY_MESSAGES.percent,
    });
    expect(CHARITY_MESSAGES.number).toBe(
      "Give the charity's registered number: 6 or 7 digits (England and Wales), SC and 6 digits (Scotland) or NIC and 6 digits (Northern Ireland)",
    );
  });

  it("refuses numbers no register gives", () => {
    for (const number of ["", "12345", "12345678", "SC12345", "NI123456", "SC1234567", "E123456"]) {
      const result = created({
        charity_terms: "fixed",
        charity_name: "A charity",
        charity_number: number,
        charity_fixed_amount: "1",
      });
      expect(messages(result), number).toEqual({ charity_number: CHARITY_MESSAGES.number });
    }
  });

  it("reads the share and the sum only for the terms chosen, within SQL's limits", () => {
    const base = { charity_name: "A charity", charity_number: "1234567" };
    for (const percent of ["0", "0.00", "100.01", "101", "12.345", "-5", "ten", ""]) {
      const result = created({
        ...base,
        charity_terms: "share",
        charity_revenue_percent: percent,
        charity_fixed_amount: "x",
      });
      expect(messages(result), percent).toEqual({ charity_revenue_percent: CHARITY_MESSAGES.percent });
    }
    for (const percent of ["0.01", "100", "100.00", "7"]) {
      expect(messages(created({ ...base, charity_terms: "share", charity_revenue_percent: percent })), percent).toEqual(
        {},
      );
    }
    for (const sum of ["0", "0.00", "10000000.01", "12.345", "£5", ""]) {
      const result = created({
        ...base,
        charity_terms: "fixed",
        charity_fixed_amount: sum,
        charity_revenue_percent: "x",
      });
      expect(messages(result), sum).toEqual({ charity_fixed_amount: CHARITY_MESSAGES.fixed });
    }
    expect(messages(created({ ...base, charity_terms: "fixed", charity_fixed_amount: "10000000" }))).toEqual({});
  });

  it("refuses terms the form does not offer", () => {
    expect(messages(created({ charity_terms: "half" }))).toEqual({ charity_terms: CHARITY_MESSAGES.terms });
  });

  it("leaves the charity out of an edit whose charity fields were disabled (not posted)", () => {
    const result = updateCompetitionSchema.parse(posted({ id: ID, title: "New title" }));
    expect(result).toEqual({ id: ID, fields: { title: "New title" } });
  });

  it("sends an edit's charity, or null to remove a draft's", () => {
    const named = updateCompetitionSchema.parse(
      posted({
        id: ID,
        charity_terms: "share",
        charity_name: "Shelter",
        charity_number: "263710",
        charity_revenue_percent: "10",
      }),
    );
    expect(named.fields.charity).toEqual({
      name: "Shelter",
      registered_number: "263710",
      website: null,
      revenue_percent: "10",
    });
    expect(updateCompetitionSchema.parse(posted({ id: ID, charity_terms: "none" })).fields).toEqual({ charity: null });
  });
});

describe("the donation form", () => {
  const pdf = new File([new TextEncoder().encode("%PDF-1.4\n%…")], "receipt.pdf", { type: "application/pdf" });
  const donation = (fields: Record<string, string>, proof: File | null = pdf) => {
    const form = new FormData();
    for (const [key, value] of Object.entries({ competitionId: ID, ...fields })) form.append(key, value);
    if (proof) form.append("proof", proof);
    return parseForm(recordCharityDonationAction.schema, form);
  };

  it("takes the amount as text, the day, the reference and the proof", () => {
    const parsed = donation({ amount: " 250.50 ", donated_on: "2026-01-15", reference: " GA-1 " });
    expect(parsed.data).toMatchObject({
      competitionId: ID,
      amount: "250.50",
      donated_on: "2026-01-15",
      reference: "GA-1",
    });
    expect(parsed.data?.proof.name).toBe("receipt.pdf");
  });

  it("gives one message per field for an empty form", () => {
    const empty = new File([], "", { type: "application/octet-stream" });
    expect(messages(donation({ amount: "", donated_on: "", reference: "" }, empty))).toEqual({
      amount: "Give the amount in pounds and pence, above £0, e.g. 250 or 249.99",
      donated_on: "Give the date the donation was made",
      reference: "Give the payment reference (up to 100 characters)",
      proof: CHOOSE_PROOF,
    });
    expect(messages(donation({}, null))).toMatchObject({ proof: CHOOSE_PROOF });
  });

  it("refuses a day that does not exist or is after today, a sum beyond SQL's and a proof over 5 MB", () => {
    const tomorrow = londonDay(Date.now() + 86_400_000);
    const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], "statement.pdf", { type: "application/pdf" });
    expect(
      messages(donation({ amount: "10000000.01", donated_on: "2026-02-30", reference: "x".repeat(101) }, big)),
    ).toEqual({
      amount: "Give the amount in pounds and pence, above £0, e.g. 250 or 249.99",
      donated_on: "Give the date the donation was made",
      reference: "Give the payment reference (up to 100 characters)",
      proof: PROOF_TOO_LARGE,
    });
    expect(messages(donation({ amount: "1", donated_on: tomorrow, reference: "x" }))).toEqual({
      donated_on: "The donation cannot be dated after today",
    });
  });
});

describe("donation proofs", () => {
  const NAME = "0b836298-d83f-469b-acb2-0b9753afa529.pdf";

  it("names only the bucket's own objects: a random UUID and a proof's extension", () => {
    expect(proofPathOf(NAME)).toBe(`/media/charity-proofs/${NAME}`);
    expect(proofNameOf(`/media/charity-proofs/${NAME}`)).toBe(NAME);
    expect(proofTypeOf(NAME)).toBe("application/pdf");
    expect(proofTypeOf(NAME.replace(".pdf", ".jpg"))).toBe("image/jpeg");
    for (const path of [
      `/media/competition-images/${NAME}`,
      `/media/charity-proofs/../${NAME}`,
      `/media/charity-proofs/x/${NAME}`,
      "/media/charity-proofs/0B836298-D83F-469B-ACB2-0B9753AFA529.pdf",
      "/media/charity-proofs/0b836298-d83f-469b-acb2-0b9753afa529.html",
    ]) {
      expect(proofNameOf(path), path).toBeNull();
    }
    expect(proofTypeOf("receipt.pdf")).toBeNull();
  });

  it("reads a PDF and the images from their first bytes, whatever a file claims", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(sniffProofType(bytes("%PDF-1.7\n"))).toBe("application/pdf");
    expect(sniffProofType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffProofType(bytes("RIFF\u0000\u0000\u0000\u0000WEBPVP8 "))).toBe("image/webp");
    expect(sniffProofType(bytes("%PDX-1.7"))).toBeNull();
    expect(sniffProofType(bytes("<html><body>%PDF-"))).toBeNull();
    expect(sniffProofType(new Uint8Array())).toBeNull();
  });
});
