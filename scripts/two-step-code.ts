// Prints the current two-step verification code for a set-up key, for trying the demo admins without
// an authenticator app: `npm run two-step-code -- <key shown under the QR code>`.
import { totpCode } from "@labcash/embedded-supabase/totp";

const key = process.argv[2];
if (!key || !/^[A-Z2-7]+=*$/i.test(key)) {
  console.error("Usage: npm run two-step-code -- <set-up key shown under the QR code>");
  process.exit(1);
}
console.log(totpCode(key.toUpperCase()));
