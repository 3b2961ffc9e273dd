import { cn } from "@/components/ui/cn";
import type { TextVariant } from "./flow-json-read";

const TEXT_CLASSES: Record<TextVariant, string> = {
  heading: "text-xl font-bold leading-7",
  subheading: "text-base font-semibold leading-6",
  body: "text-sm leading-5 whitespace-pre-line",
  caption: "text-xs leading-4 text-slate-500 whitespace-pre-line",
};

/** TextHeading, TextSubheading, TextBody, TextCaption (RichText reads as body text here). */
export function FlowText({ variant, text }: { variant: TextVariant; text: string }) {
  if (variant === "heading") return <h2 className={TEXT_CLASSES.heading}>{text}</h2>;
  if (variant === "subheading") return <h3 className={TEXT_CLASSES.subheading}>{text}</h3>;
  return <p className={TEXT_CLASSES[variant]}>{text}</p>;
}

/** An EmbeddedLink: a button that looks like a link (it runs an action, it does not open a page). */
export function FlowLink({ text, onPress, disabled }: { text: string; onPress: () => void; disabled: boolean }) {
  return (
    <button
      type="button"
      onClick={onPress}
      disabled={disabled}
      className="text-sm font-medium text-emerald-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-700 disabled:text-slate-400"
    >
      {text}
    </button>
  );
}

/** An Image: Flow JSON carries it as base64 without a MIME type; browsers sniff PNG, JPEG and WebP alike. */
export function FlowImage({ src, alt }: { src: string; alt: string }) {
  if (!src) return null;
  const url = src.startsWith("data:") ? src : `data:image/png;base64,${src}`;
  // A data: URL from the flow itself: next/image would add nothing here.
  // eslint-disable-next-line @next/next/no-img-element
  return <img src={url} alt={alt} className="mx-auto max-h-48 rounded-md object-contain" />;
}

/** A component this preview does not draw (it still works on the phone). */
export function FlowUnknown({ type }: { type: string }) {
  return <p className={cn("rounded-md border border-dashed border-slate-300 px-3 py-2 text-xs text-slate-500")}>{type} (not shown in the preview)</p>;
}
