/**
 * The non-empty lines of a file's bytes with their 1-based numbers, decoded one at a time: a
 * large state file is never turned into one string (V8 caps a string at about 512 MiB).
 */
export function* bufferLines(buffer: Buffer): Generator<[number, string]> {
  let start = 0;
  let number = 0;
  while (start < buffer.length) {
    const end = buffer.indexOf(10, start);
    const stop = end === -1 ? buffer.length : end;
    number += 1;
    if (stop > start) yield [number, buffer.toString("utf8", start, stop)];
    start = stop + 1;
  }
}
