"use client";
// The dashboard's menu: a column beside the page on a wide screen; on a phone a "Menu" button
// naming the current page, which opens every item as a list (Escape or a choice closes it). The
// current item carries aria-current: "page" on its own page, "true" inside its section
// (/dashboard/agents/<id> under Listings).
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import styles from "../dashboard.module.css";
import { UnreadBadge } from "./unread-badge";

export type DashboardLink = { href: string; label: string; unread?: number };

function ariaCurrent(link: DashboardLink, pathname: string | null): "page" | "true" | undefined {
  if (pathname === link.href) return "page";
  return link.href !== "/dashboard" && pathname?.startsWith(`${link.href}/`) ? "true" : undefined;
}

export function DashboardMenu({ links, children }: { links: DashboardLink[]; children: ReactNode }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const here = links.find((link) => ariaCurrent(link, pathname));
  const unread = links.reduce((sum, link) => sum + (link.unread ?? 0), 0);

  // A new page closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => setOpen(false), [pathname]);

  // Escape closes the open menu and puts the focus back on its button.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <div className={styles.menu} data-open={open || undefined}>
      <button
        ref={button}
        type="button"
        className={styles.menuButton}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true" className={styles.menuIcon} />
        <span>Menu{here && <span className={styles.menuHere}>: {here.label}</span>}</span>
        {!open && <UnreadBadge count={unread} />}
      </button>
      <ul id={listId}>
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={ariaCurrent(link, pathname)}>
              {link.label}
              {link.unread !== undefined && <UnreadBadge count={link.unread} />}
            </Link>
          </li>
        ))}
        {children}
      </ul>
    </div>
  );
}
