import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { createClient } from "@/lib/supabase/server";
import { newPasswordSchema } from "@/lib/validation/auth";

const bodySchema = z.object({ newPassword: newPasswordSchema });

// Spec §7: POST /api/auth/update-password with { newPassword }. Errors carry a
// statusMessage the profile screen shows as it is.
export async function POST(request: NextRequest) {
  const supabase = await createClient();
  const { data: claims } = await supabase.auth.getClaims();
  if (!claims?.claims) return error(401, "User not authenticated");

  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return error(400, "Send a JSON body with newPassword");
  }
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) return error(400, parsed.error.issues[0]?.message ?? "Failed to update password");

  const { error: updateError } = await supabase.auth.updateUser({ password: parsed.data.newPassword });
  if (updateError)
    return error(updateError.status && updateError.status < 500 ? updateError.status : 500, updateError.message);
  return NextResponse.json({ ok: true });
}

function error(status: number, statusMessage: string) {
  return NextResponse.json({ statusCode: status, statusMessage }, { status });
}
