// A body the interceptor held back to read, as text: what both of its handlers (the throttle
// path's and the success path's opt-ins) decide on.

import { decodeBody, isIdentity } from "../../internal/decode.js";
import { BODY_CAP_BYTES, usableText } from "../read-body.js";

/** One decoder for every body: `decode` without `stream` keeps no state between calls. */
const decoder = new TextDecoder();

/**
 * The held bytes as text: at once for an uncompressed body, after decoding a compressed one
 * (only a `whole` one can be decoded); `undefined` when nothing can be read of it.
 */
export function heldText(
  bytes: Uint8Array | undefined,
  encoding: string | undefined,
  whole: boolean,
): string | undefined | Promise<string | undefined> {
  if (bytes === undefined) return undefined;
  if (isIdentity(encoding)) return usableText({ text: decoder.decode(bytes), complete: whole });
  if (!whole) return undefined;
  return decodeBody(bytes, encoding ?? "", BODY_CAP_BYTES).then(
    (decoded) =>
      decoded && usableText({ text: decoder.decode(decoded.data), complete: decoded.complete }),
  );
}
