import { describe, expect, it } from "vitest";
import { checkModuleVersion, LATEST_MODULE_VERSION } from "../../src/index.js";
import { expectFindings, type Expected } from "../kinds/kit/finding-table.js";

describe("checkModuleVersion", () => {
  it.each<[string, string, Expected, string[]]>([
    ["1.19.2", LATEST_MODULE_VERSION, [["MODULE_VERSION_OK", "info"]], []],
    ["1.19.0", LATEST_MODULE_VERSION, [["MODULE_VERSION_OK", "info"]], []],
    ["1.17.0", LATEST_MODULE_VERSION, [["MODULE_VERSION_OK", "info"]], []],
    ["v1.18.5", LATEST_MODULE_VERSION, [["MODULE_VERSION_OK", "info"]], []],
    ["1.17", LATEST_MODULE_VERSION, [["MODULE_VERSION_OK", "info"]], []],
    ["1.16.9", LATEST_MODULE_VERSION, [["MODULE_VERSION_TOO_OLD", "warn"]], ["module_version", "1.16.9", "3 minor versions behind", "1.19.2"]],
    ["1.8.0", LATEST_MODULE_VERSION, [["MODULE_VERSION_TOO_OLD", "warn"]], ["module_version", "11 minor versions"]],
    ["0.99.0", LATEST_MODULE_VERSION, [["MODULE_VERSION_MAJOR_BEHIND", "block"]], ["module_version", "0.99.0", "major"]],
    ["1.20.0", LATEST_MODULE_VERSION, [["MODULE_VERSION_AHEAD", "info"]], []],
    ["2.0.0", LATEST_MODULE_VERSION, [["MODULE_VERSION_AHEAD", "info"]], []],
    ["", LATEST_MODULE_VERSION, [["MODULE_VERSION_UNPARSEABLE", "warn"]], ["module_version"]],
    ["one.two", LATEST_MODULE_VERSION, [["MODULE_VERSION_UNPARSEABLE", "warn"]], ["module_version", "one.two"]],
    ["1", LATEST_MODULE_VERSION, [["MODULE_VERSION_UNPARSEABLE", "warn"]], ["module_version"]],
    ["3.4.0", "3.6.1", [["MODULE_VERSION_OK", "info"]], []],
    ["3.3.9", "3.6.1", [["MODULE_VERSION_TOO_OLD", "warn"]], ["3.6.1"]],
    ["2.9.0", "3.0.0", [["MODULE_VERSION_MAJOR_BEHIND", "block"]], ["3.0.0"]],
  ])("%j against %j", (version, latest, expected, fields) => {
    expectFindings(checkModuleVersion(version, latest), expected, fields);
  });

  it("names the parameter when the latest version itself cannot be read", () => {
    expect(() => checkModuleVersion("1.19.2", "latest")).toThrow(/latestModuleVersion/);
  });
});
