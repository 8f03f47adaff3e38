/** The paths extension/scripts/e2e.mjs hands to the suite. */
export interface E2eTools {
  node: string;
  codeServerEntry: string;
  chromium: string;
  vsix: string;
  resultsDir: string;
}

export function e2eTools(): E2eTools {
  const read = (name: string): string => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run the suite with node extension/scripts/e2e.mjs, which installs the tools and builds the .vsix`);
    return value;
  };
  return {
    node: read("CUSTODY_E2E_NODE"),
    codeServerEntry: read("CUSTODY_E2E_CODE_SERVER"),
    chromium: read("CUSTODY_E2E_CHROMIUM"),
    vsix: read("CUSTODY_E2E_VSIX"),
    resultsDir: read("CUSTODY_E2E_RESULTS"),
  };
}
