import type { SVGProps } from "react";

/** Message-kind icons the shared set lacks (emoji would depend on the viewer's fonts). Decorative. */
type GlyphProps = SVGProps<SVGSVGElement> & { size?: number };

function Glyph({ size = 14, children, ...props }: GlyphProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const PinGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <path d="M10 17.5s5.5-5 5.5-9.25a5.5 5.5 0 0 0-11 0C4.5 12.5 10 17.5 10 17.5Z" />
    <circle cx="10" cy="8.25" r="2" />
  </Glyph>
);
export const PhotoGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <rect x="2.5" y="4" width="15" height="12" rx="1.5" />
    <circle cx="7" cy="8.5" r="1.5" />
    <path d="m17.5 13-4-4-7 7" />
  </Glyph>
);
export const DocumentGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <path d="M5 2.5h6.5l3.5 4v11H5z" />
    <path d="M11.5 2.5v4H15M7.5 11h5M7.5 14h5" />
  </Glyph>
);
export const ReplyGlyph = (p: GlyphProps) => (
  <Glyph {...p}>
    <path d="M8 5 3.5 9.5 8 14" />
    <path d="M3.5 9.5H12a4.5 4.5 0 0 1 4.5 4.5v1" />
  </Glyph>
);
