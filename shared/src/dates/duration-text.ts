/** A duration in seconds, always with its unit: "27 d 23 h", "5 h 3 min", "42 s" (to the minute beyond one); 0 or less is "now". */
export function durationText(exact: number): string {
  if (!Number.isFinite(exact) || exact <= 0) return "now";
  // To the minute beyond one: the service's now is known to about a second.
  const seconds = exact < 60 ? exact : Math.round(exact / 60) * 60;
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  if (minutes > 0) return `${minutes} min`;
  return `${Math.floor(seconds)} s`;
}

/** A moment for people and models: ISO 8601 in UTC to the minute, "2026-11-26T08:00Z". */
export function momentText(at: Date): string {
  return `${at.toISOString().slice(0, 16)}Z`;
}

/** "2026-11-26T08:00Z (in 2 d 12 h)": a moment and how far it is from now. */
export function whenText(at: Date, now: Date): string {
  const left = durationText((at.getTime() - now.getTime()) / 1000);
  return `${momentText(at)} (${left === "now" ? "now" : `in ${left}`})`;
}
