import { describe, expect, it } from "vitest";
import { RESULTS_END, RESULTS_START, spliceSection } from "./bench-report.js";

const doc = [
  "# Performance",
  "",
  "### Scale: hand-written findings (above the markers, never touched)",
  "",
  "text",
  "",
  RESULTS_START,
  "Measured earlier.",
  "",
  "### Cold start",
  "",
  "| a |",
  "",
  "### Scale: old figures",
  "",
  "| old |",
  "",
  "### Peak memory",
  "",
  "| m |",
  "",
  RESULTS_END,
  "",
].join("\n");

describe("spliceSection: one table of the results replaced, the rest kept", () => {
  it("replaces the section between the markers only, keeping the blank line before the next heading", () => {
    const out = spliceSection(doc, "Scale", "### Scale: new figures\n\n| new |");
    expect(out).toContain("### Scale: hand-written findings (above the markers, never touched)\n\ntext");
    expect(out).not.toContain("| old |");
    expect(out).toContain("### Cold start\n\n| a |\n\n### Scale: new figures\n\n| new |\n\n### Peak memory\n\n| m |");
    expect(spliceSection(out, "Scale", "### Scale: newer\n\n| newer |")).toBe(
      out.replace("### Scale: new figures\n\n| new |", "### Scale: newer\n\n| newer |"),
    );
  });

  it("a section that was not there goes before the end marker; a last section is replaced up to the marker", () => {
    const added = spliceSection(doc, "Extra", "### Extra\n\n| x |");
    expect(added).toContain(`| m |\n\n### Extra\n\n| x |\n${RESULTS_END}`);
    const last = spliceSection(added, "Extra", "### Extra\n\n| y |");
    expect(last).toContain(`### Extra\n\n| y |\n${RESULTS_END}`);
    // After a last table that runs up to the end marker, a new section still starts after a blank line.
    expect(spliceSection(last, "More", "### More\n\n| z |")).toContain(`| y |\n\n### More\n\n| z |\n${RESULTS_END}`);
  });
});
