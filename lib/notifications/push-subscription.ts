import { z } from "zod";

/**
 * A browser's push subscription as PushSubscription.toJSON() gives it (RFC 8030 endpoint, RFC 8291 keys): an
 * https endpoint, a P-256 public key (65 bytes) and a 16-byte auth secret, base64url. SQL checks the same.
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .url({ protocol: /^https$/, error: "The push endpoint must be an https address" })
    .max(2000, "The push endpoint is too long"),
  p256dh: z.string().regex(/^[A-Za-z0-9_-]{87}=?$/, "The browser's push key is not valid"),
  auth: z.string().regex(/^[A-Za-z0-9_-]{22}(==)?$/, "The browser's push secret is not valid"),
});
