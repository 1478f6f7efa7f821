import "server-only";
import { notFound } from "next/navigation";
import { z } from "zod";
import { getUser } from "@/lib/data/admin-users";
import { DbError } from "@/lib/data/errors";

/** The user of /admin/users/{id}[/edit], or the 404 page for an id that is not an account. */
export async function loadUser(id: string) {
  if (!z.string().uuid().safeParse(id).success) notFound();
  try {
    return await getUser(id);
  } catch (e) {
    if (e instanceof DbError && e.code === "user_not_found") notFound();
    throw e;
  }
}
