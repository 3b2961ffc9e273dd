import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "svc", template: "%s · svc" },
  description: "One REST API over several business-messaging platforms.",
  // public/icon.svg; public/robots.txt keeps crawlers out, and a page reached by a link says noindex.
  icons: { icon: { url: "/icon.svg", type: "image/svg+xml" } },
  robots: { index: false, follow: false },
};

export const viewport: Viewport = {
  themeColor: "#f8fafc",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-dvh bg-slate-50 text-slate-900 antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
