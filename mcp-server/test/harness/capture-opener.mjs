// A confirmation-page opener for tests (--confirm-opener "node capture-opener.mjs"): it plays the
// person's browser by appending the link it is given to the file CUSTODY_TEST_OPENED names.
import { appendFileSync } from "node:fs";

appendFileSync(process.env.CUSTODY_TEST_OPENED, `${process.argv.at(-1)}\n`);
