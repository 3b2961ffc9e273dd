/** Node.js: what a receiver needs to trust a delivery (spec: Events → Delivery, x-svc-signature). */
export const VERIFY_SNIPPET = `import crypto from "node:crypto";

// rawBody: the exact bytes received, before parsing.
// secret: the signing secret, whsec_ included.
function isFromSvc(rawBody, header, secret) {
  const hex = crypto.createHmac("sha256", secret)
    .update(rawBody).digest("hex");
  const expected = Buffer.from("sha256=" + hex);
  // During a rotation the header lists two
  // signatures, comma-separated: accept either.
  return (header ?? "").split(",").some((part) => {
    const given = Buffer.from(part.trim());
    return given.length === expected.length &&
      crypto.timingSafeEqual(given, expected);
  });
}

// header: req.headers["x-svc-signature"]`;
