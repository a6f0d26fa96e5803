"use client";
// The dashboard's links with the current one marked: aria-current="page" on its own page, "true"
// on a page inside its section (/dashboard/agents/<id> under Listings). The only part of the
// navigation that needs the browser's path.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { UnreadBadge } from "./unread-badge";

export type DashboardLink = { href: string; label: string; unread?: number };

export function DashboardNavLinks({ links }: { links: DashboardLink[] }) {
  const pathname = usePathname();
  return links.map((link) => {
    const inSection = link.href !== "/dashboard" && pathname?.startsWith(`${link.href}/`);
    return (
      <li key={link.href}>
        <Link href={link.href} aria-current={pathname === link.href ? "page" : inSection ? "true" : undefined}>
          {link.label}
          {link.unread !== undefined && <UnreadBadge count={link.unread} />}
        </Link>
      </li>
    );
  });
}
