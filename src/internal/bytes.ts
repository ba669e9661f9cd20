/** The first `size` bytes of `chunks`, as one array. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const data = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= size) break;
    const part = chunk.subarray(0, size - offset);
    data.set(part, offset);
    offset += part.byteLength;
  }
  return data;
}
