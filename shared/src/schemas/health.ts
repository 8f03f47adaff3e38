import { z } from "zod";

/** GET /_health; the body is the emulator's (spec: not shown): module and API versions. */
export const Health = z.looseObject({
  status: z.string(),
  module_version: z.string(),
  api_version: z.string(),
});
export type Health = z.infer<typeof Health>;

export const LATEST_MODULE_VERSION = "1.19.2";
export const LATEST_API_VERSION = "1.30.5";
