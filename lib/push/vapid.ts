import { createECDH, createHash } from "node:crypto";
import { env as serverEnv, type Env } from "@/lib/env";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The embedded backend's own pair, derived from a fixed label so every process of a local run (the
 * launcher, the build, the e2e server) agrees without a file to share. It protects nothing: a push
 * service only uses it to tie a subscription to its sender, and production sets its own keys.
 */
function embeddedKeys(): VapidKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(createHash("sha256").update("labcash-embedded-vapid-v1").digest());
  return {
    publicKey: ecdh.getPublicKey().toString("base64url"),
    privateKey: ecdh.getPrivateKey().toString("base64url"),
    subject: "mailto:push@labcash.test",
  };
}

/** The keys push is sent with: the environment's, the embedded pair locally, or null (push is off). */
export function vapidKeys(env: Env = serverEnv()): VapidKeys | null {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY && env.VAPID_SUBJECT)
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT };
  return env.supabase.embedded ? embeddedKeys() : null;
}
