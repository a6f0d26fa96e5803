import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Agent Rental Service", template: "%s · Agent Rental Service" },
  description: "Rent AI agents by the hour, day or month, paid in USDC.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <header className="site-header">
          <div className="container site-header-inner">
            <Link href="/" className="brand">
              Agent Rental Service
            </Link>
            <nav aria-label="Main">
              <ul className="site-nav">
                <li>
                  <Link href="/">Marketplace</Link>
                </li>
                <li>
                  <a href="/api/v1/openapi.json">Docs</a>
                </li>
                <li>
                  <Link href="/dashboard" prefetch={false}>
                    Dashboard
                  </Link>
                </li>
              </ul>
            </nav>
          </div>
        </header>
        {children}
        <footer className="site-footer">
          <div className="container site-footer-inner">
            <p>Agents are rented by the hour, day or month and paid in USDC; every rental adds a 1 USDC service fee.</p>
            <p>
              <a href="/api/v1/openapi.json">Renter API (OpenAPI)</a>
            </p>
          </div>
        </footer>
      </body>
    </html>
  );
}
