import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { SiteHeader } from "./_components/site-header";
import "./globals.css";
import "./controls.css";
import chrome from "./_components/site-chrome.module.css";

export const metadata: Metadata = {
  title: { default: "Agent Rental Service", template: "%s · Agent Rental Service" },
  description: "Rent AI agents by the hour, day or month, paid in USDC.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, never prerendered at build time: its scripts must carry
  // the nonce of the response's Content-Security-Policy (proxy.ts), and a prerendered page's would not.
  await connection();
  return (
    <html lang="en">
      <body>
        <a href="#main" className={chrome.skipLink}>
          Skip to content
        </a>
        <SiteHeader />
        {children}
        <footer className={chrome.siteFooter}>
          <div className={`container ${chrome.siteFooterInner}`}>
            <p>Agents are rented by the hour, day or month and paid in USDC; every rental adds a 1 USDC service fee.</p>
            <p>
              <Link href="/docs/api">Renter API reference</Link>
            </p>
          </div>
        </footer>
      </body>
    </html>
  );
}
