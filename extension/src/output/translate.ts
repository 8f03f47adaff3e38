import * as vscode from "vscode";
import type { Translate } from "@custody/shared";

/** vscode.l10n.t as shared's text builders take it: their templates are translated by the extension's bundle. */
export const translate: Translate = (message, ...args) => vscode.l10n.t(message, ...args);
