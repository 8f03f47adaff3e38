import { z } from "zod";

// The MCP registry's server.json schema (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json),
// written out in zod for what a server published as an npm package over stdio uses: its documented
// fields, lengths and patterns. The schema is not in any installed package and the tests run offline.

/** The registry refuses a version range ('^1.2.3', '~1.2.3', '>=1.2.3', '1.x', '1.*') and "latest". */
const exactVersion = z
  .string()
  .min(1)
  .max(255)
  .refine((version) => version !== "latest" && !/^[\^~<>=]|(^|\.)[xX*](\.|$)|\s/.test(version), "a specific version, not a range");

const input = z.strictObject({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(["string", "number", "boolean", "filepath"]).optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
});

const keyValueInput = input.extend({ name: z.string().min(1) });

const npmPackage = z.strictObject({
  registryType: z.literal("npm"),
  registryBaseUrl: z.url().optional(),
  identifier: z.string().min(1),
  version: exactVersion,
  runtimeHint: z.string().optional(),
  transport: z.strictObject({ type: z.literal("stdio") }),
  environmentVariables: z.array(keyValueInput).optional(),
});

export const serverJsonSchema = z.strictObject({
  $schema: z.url(),
  /** Reverse-DNS: exactly one slash between the namespace and the server's name. */
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  title: z.string().min(1).max(100).optional(),
  description: z.string().min(1).max(100),
  version: exactVersion,
  websiteUrl: z.url().optional(),
  repository: z.strictObject({ url: z.url(), source: z.string(), id: z.string().optional(), subfolder: z.string().optional() }).optional(),
  packages: z.array(npmPackage).min(1),
});
