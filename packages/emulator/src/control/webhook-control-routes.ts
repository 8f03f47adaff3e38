import type { EmulatorContext } from "../context.js";
import { parseBody } from "../http/parse-body.js";
import type { RouteTable } from "../http/route-def.js";
import { SIGNATURE_HEADER } from "../webhooks/webhook-signature.js";
import { WebhookBody } from "./control-schemas.js";
import { plainReply } from "./plain-reply.js";

const SUBSCRIPTION_ID = "default";

function subscriptionView(ctx: EmulatorContext): Record<string, unknown> {
  const row = ctx.store.get("webhook_subscriptions", SUBSCRIPTION_ID);
  if (!row) return { subscribed: false };
  return { subscribed: true, url: row.url, events: row.events, signature_header: SIGNATURE_HEADER };
}

/** The webhook subscription (one; the secret is never shown back) and the recent deliveries. */
export function addWebhookControlRoutes(routes: RouteTable): void {
  routes.get("/webhook", (ctx) => plainReply(subscriptionView(ctx)));
  routes.put("/webhook", async (ctx, request) => {
    const body = parseBody(WebhookBody, request.body);
    await ctx.commit((tx) =>
      tx.put("webhook_subscriptions", SUBSCRIPTION_ID, { id: SUBSCRIPTION_ID, url: body.url, secret: body.secret, events: body.events, created_on_ms: tx.now }),
    );
    return plainReply(subscriptionView(ctx));
  });
  routes.delete("/webhook", async (ctx) => {
    await ctx.commit((tx) => tx.remove("webhook_subscriptions", SUBSCRIPTION_ID));
    return plainReply(subscriptionView(ctx));
  });
  routes.get("/webhook/deliveries", (ctx) => plainReply(ctx.webhooks.deliveries()));
}
