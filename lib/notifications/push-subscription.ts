import { z } from "zod";

/**
 * The browsers' push services (Chrome and most others through FCM, Firefox through Mozilla's autopush, Safari
 * through Apple, Edge through Windows' WNS): an endpoint is https on one of these, on the default port, with a
 * path of plain URL characters. The same pattern as SQL's private.is_push_service_endpoint, which has the last
 * word on save; lib/push/deliver.ts checks it again, and where the name resolves, before each send.
 */
const PUSH_SERVICE_ENDPOINT = new RegExp(
  "^https://(?:fcm\\.googleapis\\.com|updates\\.push\\.services\\.mozilla\\.com" +
    "|(?:[a-z0-9-]+\\.)+push\\.apple\\.com|(?:[a-z0-9-]+\\.)+notify\\.windows\\.com)" +
    "/[A-Za-z0-9._~:/?#!$&*+,;=%-]*$",
);
const MOST_ENDPOINT_CHARACTERS = 2000;

export const isPushServiceEndpoint = (endpoint: string): boolean =>
  endpoint.length <= MOST_ENDPOINT_CHARACTERS && PUSH_SERVICE_ENDPOINT.test(endpoint);

/**
 * A browser's push subscription as PushSubscription.toJSON() gives it (RFC 8030 endpoint, RFC 8291 keys): an
 * endpoint on a browser push service, a P-256 public key (65 bytes) and a 16-byte auth secret, base64url. SQL
 * checks the same.
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(MOST_ENDPOINT_CHARACTERS, "The push endpoint is too long")
    .refine(isPushServiceEndpoint, "Push works only through your browser's own push service"),
  p256dh: z.string().regex(/^[A-Za-z0-9_-]{87}=?$/, "The browser's push key is not valid"),
  auth: z.string().regex(/^[A-Za-z0-9_-]{22}(==)?$/, "The browser's push secret is not valid"),
});
