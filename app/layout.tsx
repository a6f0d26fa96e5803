import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = {
  title: "Agent Rental Service",
  description: "Rent AI agents by the hour, day or month, paid in USDC.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: 0, color: "#111", background: "#fafafa" }}>
        {children}
      </body>
    </html>
  );
}
