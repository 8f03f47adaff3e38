import { readKeyBytesFile, errorMessage } from "@custody/shared";
import { ConfigError } from "../config/server-config.js";
import { OPTIONS, settingName } from "../config/options.js";

/**
 * The confirmation tokens' HMAC key, shared by replicas through a file: its bytes as they are
 * (binary or text), at least 32. Errors name the setting and the file, never the content.
 */
export function readTokenSecretFile(path: string): Buffer {
  try {
    return readKeyBytesFile(path, settingName(OPTIONS.tokenSecretFile));
  } catch (error) {
    throw new ConfigError(errorMessage(error), { cause: (error as Error).cause });
  }
}
