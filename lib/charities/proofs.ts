import { sniffImageType } from "@/lib/competitions/images";

// The proofs of donations to charities (a receipt, an acknowledgement, a bank statement): the rules the donation
// form, its server action and the proofs' route share. The bucket's own limits
// (supabase/migrations/*_charity_partner_tables.sql) and admin_record_charity_donation's check of the path are the
// last word; these say the same so a person hears about a wrong file before it is sent.

/** The Storage bucket, made by the migration: public by name, admin writes, listed by admins only. */
export const CHARITY_PROOF_BUCKET = "charity-proofs";

/** The bucket's file_size_limit. A proof is sent as it is (a PDF cannot be shrunk like a photo). */
export const MAX_PROOF_BYTES = 5 * 1024 * 1024;

export const PROOF_TYPES = {
  "application/pdf": "pdf",
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
} as const;
export type ProofType = keyof typeof PROOF_TYPES;

/** The file input's `accept`: the types, and the extensions for systems that label a PDF otherwise. */
export const PROOF_ACCEPT = [...Object.keys(PROOF_TYPES), ".pdf", ".jpg", ".jpeg", ".png", ".webp"].join(",");

export const CHOOSE_PROOF = "Choose a PDF, JPEG, PNG or WebP file";
export const PROOF_TOO_LARGE = "The proof is over 5 MB: choose a smaller file";

export const isProofType = (type: string): type is ProofType => Object.hasOwn(PROOF_TYPES, type);

/** Where the site serves a proof (app/media/charity-proofs): the path the donation keeps, never the backend's URL. */
const PATH_PREFIX = `/media/${CHARITY_PROOF_BUCKET}/`;

/** A stored proof's name: a random UUID and the type's extension, nothing a person typed (as the SQL checks). */
const OBJECT_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(pdf|jpg|png|webp)$/;

export const proofPathOf = (objectName: string) => `${PATH_PREFIX}${objectName}`;

/** The object a site path names, or null when the path is not one of the bucket's proofs. */
export function proofNameOf(proofPath: string): string | null {
  if (!proofPath.startsWith(PATH_PREFIX)) return null;
  const name = proofPath.slice(PATH_PREFIX.length);
  return OBJECT_NAME.test(name) ? name : null;
}

/** The type a proof's name says, which its route answers with; null for a name that is not a proof's. */
export function proofTypeOf(objectName: string): ProofType | null {
  const extension = OBJECT_NAME.exec(objectName)?.[1];
  return (Object.keys(PROOF_TYPES) as ProofType[]).find((type) => PROOF_TYPES[type] === extension) ?? null;
}

/** The first bytes of each accepted type: a file is what its bytes say, whatever its name or label. */
export function sniffProofType(bytes: Uint8Array): ProofType | null {
  const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
  if (PDF.every((b, i) => bytes[i] === b)) return "application/pdf";
  return sniffImageType(bytes);
}
