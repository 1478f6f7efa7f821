"use client";

import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import type { NavNode } from "@/lib/content/docs";
import { cn } from "@/lib/utils";

function Nodes({ nodes, pathname, depth }: { nodes: NavNode[]; pathname: string; depth: number }) {
  return (
    <ul className={cn("space-y-0.5", depth > 0 && "mt-1 ml-3 border-l border-border pl-2")}>
      {nodes.map((node) => (
        <li key={node.path}>
          {node.page ? (
            <Link
              href={node.path}
              aria-current={pathname === node.path ? "page" : undefined}
              className={cn(
                "block rounded-md px-3 py-1.5 text-sm",
                pathname === node.path
                  ? "bg-primary-soft font-medium text-primary-text"
                  : "text-muted-foreground hover:bg-accent hover:text-accent-foreground",
              )}
            >
              {node.title}
            </Link>
          ) : (
            // A folder-only node: a heading for its pages, not a link.
            <span className="mt-3 block px-3 py-1.5 text-xs font-semibold tracking-wide text-foreground uppercase">
              {node.title}
            </span>
          )}
          {node.children.length ? (
            <Nodes nodes={node.children} pathname={pathname} depth={node.page ? depth + 1 : depth} />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function DocsSidebar({ tree }: { tree: NavNode[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Documentation">
      <Nodes nodes={tree} pathname={pathname} depth={0} />
    </nav>
  );
}
