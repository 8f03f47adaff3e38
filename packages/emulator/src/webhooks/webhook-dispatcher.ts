import { randomUUID } from "node:crypto";
import { isoWithOffset } from "../clock/timestamps.js";
import type { DomainEvent } from "../domain/domain-event.js";
import type { WebhookSubscriptionRow } from "../store/state-types.js";
import { SIGNATURE_HEADER, signWebhook } from "./webhook-signature.js";
import { errorMessage } from "@custody/shared";

export interface WebhookDelivery {
  id: string;
  subscription_id: string;
  kind: string;
  url: string;
  attempts: number;
  status: "pending" | "delivered" | "failed";
  last_status: number | null;
  last_error: string | null;
  payload: string;
}

export interface WebhookDispatcherOptions {
  subscriptions: () => Iterable<WebhookSubscriptionRow>;
  workspace: string;
  baseDelayMs: number;
  maxAttempts: number;
  log: (line: string) => void;
}

const KEPT_DELIVERIES = 500;
const ATTEMPT_TIMEOUT_MS = 5_000;

/**
 * Delivers events to the subscriptions: a POST of `{id, kind, created_on, workspace, data}`,
 * signed in the x-custody-signature header; a failed attempt (no 2xx) is retried after
 * base, 2 × base, 4 × base ... up to maxAttempts. Deliveries live in memory.
 */
export class WebhookDispatcher {
  private readonly recent: WebhookDelivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: WebhookDispatcherOptions) {}

  dispatch(events: readonly DomainEvent[]): void {
    if (this.closed || events.length === 0) return;
    for (const subscription of this.options.subscriptions()) {
      for (const event of events) {
        if (subscription.events !== null && !subscription.events.includes(event.kind)) continue;
        const id = randomUUID();
        const payload = JSON.stringify({
          id,
          kind: event.kind,
          created_on: isoWithOffset(event.at_ms),
          workspace: this.options.workspace,
          data: event.data,
        });
        const delivery: WebhookDelivery = {
          id,
          subscription_id: subscription.id,
          kind: event.kind,
          url: subscription.url,
          attempts: 0,
          status: "pending",
          last_status: null,
          last_error: null,
          payload,
        };
        this.recent.push(delivery);
        if (this.recent.length > KEPT_DELIVERIES) this.recent.shift();
        void this.attempt(delivery, subscription.secret);
      }
    }
  }

  deliveries(): readonly WebhookDelivery[] {
    return this.recent;
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async attempt(delivery: WebhookDelivery, secret: string): Promise<void> {
    if (this.closed) return;
    delivery.attempts += 1;
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signWebhook(secret, timestamp, delivery.payload) },
        body: delivery.payload,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      delivery.last_status = response.status;
      await response.body?.cancel();
      if (response.ok) {
        delivery.status = "delivered";
        delivery.last_error = null;
        return;
      }
      delivery.last_error = `answered ${response.status}`;
    } catch (error) {
      delivery.last_error = errorMessage(error);
    }
    if (delivery.attempts >= this.options.maxAttempts) {
      delivery.status = "failed";
      this.options.log(`webhook ${delivery.kind} to ${delivery.url} failed after ${delivery.attempts} attempts: ${delivery.last_error ?? ""}`);
      return;
    }
    const delay = this.options.baseDelayMs * 2 ** (delivery.attempts - 1);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery, secret);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}
