import { LATEST_MODULE_VERSION } from "../schemas/health.js";
import { finding, type Finding } from "../schemas/finding.js";
import { localText } from "../l10n/translate.js";

/** The spec supports modules not more than 2 minor versions behind the latest. */
const SUPPORTED_MINOR_LAG = 2;
const VERSION = /^v?(\d{1,9})\.(\d{1,9})(?:\.(\d{1,9}))?(?:[-+][0-9A-Za-z.-]+)?$/;

interface ParsedVersion {
  major: number;
  minor: number;
}

function parseVersion(version: string): ParsedVersion | undefined {
  const match = VERSION.exec(version.trim());
  if (match === null) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/**
 * The module version against the latest: more than 2 minor versions behind (same major)
 * warns; an older major blocks; a version that cannot be read warns (the health body's
 * form is the emulator's, not the spec's, so an unfamiliar form should not stop work).
 */
export function checkModuleVersion(moduleVersion: string, latestModuleVersion: string = LATEST_MODULE_VERSION): Finding[] {
  const latest = parseVersion(latestModuleVersion);
  if (latest === undefined) {
    throw new RangeError(`latestModuleVersion must be MAJOR.MINOR[.PATCH], got ${JSON.stringify(latestModuleVersion)}`);
  }
  const facts = { module_version: moduleVersion, latest_module_version: latestModuleVersion };
  const current = parseVersion(moduleVersion);
  if (current === undefined) {
    return [
      finding(
        "warn",
        "MODULE_VERSION_UNPARSEABLE",
        localText(
          "module_version {0} is not MAJOR.MINOR[.PATCH]: cannot tell whether it is within 2 minor versions of {1}",
          JSON.stringify(moduleVersion),
          latestModuleVersion,
        ),
        facts,
      ),
    ];
  }
  if (current.major < latest.major) {
    return [
      finding(
        "block",
        "MODULE_VERSION_MAJOR_BEHIND",
        localText(
          "module_version {0} is a major version behind the latest {1}: unsupported (only modules not more than 2 minor versions behind are supported)",
          moduleVersion,
          latestModuleVersion,
        ),
        facts,
      ),
    ];
  }
  if (current.major > latest.major || current.minor > latest.minor) {
    return [
      finding("info", "MODULE_VERSION_AHEAD", localText("module_version {0} is newer than the latest known {1}", moduleVersion, latestModuleVersion), facts),
    ];
  }
  const lag = latest.minor - current.minor;
  if (lag > SUPPORTED_MINOR_LAG) {
    return [
      finding(
        "warn",
        "MODULE_VERSION_TOO_OLD",
        localText(
          "module_version {0} is {1} minor versions behind the latest {2}: only modules not more than 2 minor versions behind are supported",
          moduleVersion,
          lag,
          latestModuleVersion,
        ),
        { ...facts, minor_versions_behind: lag },
      ),
    ];
  }
  return [
    finding(
      "info",
      "MODULE_VERSION_OK",
      localText("module_version {0} is {1} minor version(s) behind the latest {2}, within the supported 2", moduleVersion, lag, latestModuleVersion),
      { ...facts, minor_versions_behind: lag },
    ),
  ];
}
