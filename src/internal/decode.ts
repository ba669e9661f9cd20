// A throttle body that came compressed (undici's request API hands bytes over as sent, unlike
// fetch): decoded with the platform's DecompressionStream, which Node, Deno, Bun, Workers and
// browsers all have. Other encodings (br, zstd) are not decoded: their message is dropped.

import { concatBytes } from "./bytes.js";

const DECODABLE = new Set(["gzip", "x-gzip", "deflate"]);

/** Whether bytes sent with this `content-encoding` can be read as they are. */
export function isIdentity(encoding: string | undefined): boolean {
  return (
    encoding === undefined || encoding.trim() === "" || encoding.trim().toLowerCase() === "identity"
  );
}

/**
 * The decoded bytes, at most `maxBytes` (`complete` when that is all of them), or `undefined`
 * for an encoding not decoded here or a corrupt body.
 */
export async function decodeBody(
  bytes: Uint8Array,
  encoding: string,
  maxBytes: number,
): Promise<{ data: Uint8Array; complete: boolean } | undefined> {
  const name = encoding.trim().toLowerCase();
  if (!DECODABLE.has(name) || typeof DecompressionStream !== "function") return undefined;
  try {
    const stream = new Blob([bytes])
      .stream()
      .pipeThrough(new DecompressionStream(name === "deflate" ? "deflate" : "gzip"));
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { data: concatBytes(chunks, size), complete: true };
      chunks.push(value);
      size += value.byteLength;
      // A small body that inflates past the cap (a zip bomb) is cut where the cap is.
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { data: concatBytes(chunks, maxBytes), complete: false };
      }
    }
  } catch {
    return undefined;
  }
}
