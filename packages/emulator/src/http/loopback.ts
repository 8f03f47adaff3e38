/** True for a caller on this machine (IPv4 127/8, IPv6 ::1, or IPv4-mapped loopback). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  return plain === "::1" || plain.startsWith("127.");
}
