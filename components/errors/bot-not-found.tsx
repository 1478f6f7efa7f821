import { headers } from "next/headers";
import { isBot } from "@/lib/bots";

/** True when this request comes from a crawler: it gets a bare 404 instead of the error page. */
export async function requestIsFromBot(): Promise<boolean> {
  return isBot((await headers()).get("user-agent"));
}

export function BotNotFound() {
  return (
    <div>
      <h1>404 Not Found</h1>
    </div>
  );
}
