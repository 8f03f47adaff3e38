import { closeSync, fsyncSync, openSync } from "node:fs";

/** Makes a rename or a file creation in the directory durable. */
export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
