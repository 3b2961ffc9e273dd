/**
 * Node.js: what a receiver needs to trust a delivery (docs/spec/service-spec.md: Events → Delivery, x-svc-signature;
 * docs/spec/decisions.md "Webhook delivery": one value per header, the previous secret's in its own header).
 * tests/webhooks/signing.test.ts runs this exact text against a real delivery made after a rotation.
 */
export const VERIFY_SNIPPET = `import crypto from "node:crypto";

// rawBody: the exact bytes received, before parsing.
// headers: req.headers (Node lower-cases the names).
// secret: the signing secret, whsec_ included.
function isFromSvc(rawBody, headers, secret) {
  const hex = crypto.createHmac("sha256", secret)
    .update(rawBody).digest("hex");
  const expected = Buffer.from("sha256=" + hex);
  // x-svc-signature: the current secret's signature.
  // For 24 h after a rotation, the previous secret's
  // is in x-svc-signature-previous: accept either.
  return ["x-svc-signature", "x-svc-signature-previous"]
    .some((name) => {
      const given = Buffer.from(String(headers[name] ?? ""));
      return given.length === expected.length &&
        crypto.timingSafeEqual(given, expected);
    });
}`;
