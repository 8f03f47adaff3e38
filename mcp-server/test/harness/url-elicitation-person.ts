import { Client, type ElicitResult } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { MODERN, modernClient } from "./modern-client.js";
import { pageRequest } from "./page-request.js";

export const LEGACY = "2025-11-25";
export type UrlEra = typeof MODERN | typeof LEGACY;
/** What the person does with the URL a client is asked to show them (and the elicitation's mode). */
export type PersonAtLink = (url: string, mode: string) => Promise<ElicitResult>;

/** The person on the page the client showed them: its form read, their decision posted from the page's origin. */
export async function decideOnPage(url: string, decision: "confirm" | "decline"): Promise<string> {
  const page = await pageRequest("GET", url);
  expect(page.status, page.text).toBe(200);
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.text)?.[1] ?? "";
  const form = new URLSearchParams({ secret: field("secret"), question: field("question"), decision }).toString();
  return (await pageRequest("POST", url, form, { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(url).origin })).text;
}

/** A client of the era declaring only URL elicitation (not connected yet); `person` plays what the person does with the URL. */
export function urlOnlyClient(era: UrlEra, person: PersonAtLink): Client {
  const capabilities = { elicitation: { url: {} } };
  const client = era === MODERN ? modernClient(capabilities) : new Client({ name: "legacy-url", version: "0" }, { capabilities });
  client.setRequestHandler("elicitation/create", (request) => person((request.params as { url?: string }).url ?? "", request.params.mode ?? "form"));
  return client;
}

type Answer = { text: string; structured: Record<string, unknown> };

/**
 * A write the person confirmed on the page their client showed them: one link shown, carrying the page's key; the page
 * answered Submitted; the call answered submitted with the one transaction sent (`labelled`: those bearing its reference);
 * and the key in nothing the model read.
 */
export function expectConfirmedOnPage(seen: { shown: string[]; decided: string; dry: Answer; outcome: Answer; sentMore: number; labelled: unknown[] }): void {
  const { shown, dry, outcome } = seen;
  expect(shown).toHaveLength(1);
  expect(shown[0]).toMatch(/\/confirm\/p1\.[^?]+\?key=/);
  expect(seen.decided).toContain("<h1>Submitted</h1>");
  expect(outcome.structured.status, outcome.text).toBe("submitted");
  expect(seen.sentMore).toBe(1);
  expect([outcome.structured.transaction_id]).toEqual(seen.labelled);
  expect(`${dry.text}${outcome.text}${JSON.stringify([dry.structured, outcome.structured])}`).not.toContain(
    new URL(shown[0] as string).searchParams.get("key"),
  );
}
