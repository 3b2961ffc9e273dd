"use client";

import { useEffect, useState } from "react";
import QRCode from "qrcode";
import { Skeleton } from "@/components/ui";

/** The link as a QR code, drawn here (an SVG from the qrcode package): the link never leaves the browser. */
export function RegistrationQr({ value }: { value: string }) {
  const [svg, setSvg] = useState<{ value: string; src: string } | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toString(value, { type: "svg", margin: 1, errorCorrectionLevel: "M" }).then((markup) => {
      if (live) setSvg({ value, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}` });
    });
    return () => {
      live = false;
    };
  }, [value]);
  if (svg?.value !== value) return <Skeleton className="size-40" />;
  return (
    // eslint-disable-next-line @next/next/no-img-element -- a local data: URL, nothing for next/image to optimise
    <img src={svg.src} alt="QR code of the registration link" data-testid="registration-qr" className="size-40 rounded-md bg-white ring-1 ring-slate-200" />
  );
}
