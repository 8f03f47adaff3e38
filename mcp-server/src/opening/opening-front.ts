import { randomBytes } from "node:crypto";
import { PassThrough, Writable } from "node:stream";
import { readOpeningAnswers, writeOpeningAnswers, type OpeningAnswers } from "./answers-file.js";
import { handOverClientStdio } from "./client-stdio.js";
import { openingConfigurationKey } from "./opening-key.js";
import { clientMessage, idOf, openingStep, type ClientMessage, type OpeningPhase } from "./opening-phase.js";
import { readClientMessage } from "../wire/client-message.js";
import { LineSplitter } from "../wire/stdio-line-splitter.js";

/** With answers given from the cache and no request since, the server is loaded anyway after this long: its start's checks must not wait for the client. */
const QUIET_LOAD_MS = 200;

const log = (line: string) => process.stderr.write(`custody-mcp: ${line}\n`);

export interface OpeningFrontOptions {
  /** The bundle's entry file (its bytes identify the build). */
  entry: string;
  /** The answers' folder (created private to its owner), or null where there is none to use. */
  answersDirectory: () => string | null;
  argv?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** A message the front answered (or, a notification, took) before the server was loaded: replayed into it at the hand-over. */
interface Taken {
  message: ClientMessage;
  /** The answer's fingerprint, for a request. */
  fingerprint?: string;
}

type Mode = "answering" | "recording" | "forwarding";

interface ServerAnswer {
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

function parsedAnswer(line: string): ServerAnswer | null {
  try {
    const answer = JSON.parse(line) as unknown;
    return typeof answer === "object" && answer !== null && (answer as ServerAnswer).id !== undefined ? (answer as ServerAnswer) : null;
  } catch {
    return null;
  }
}

function sameAnswer(known: Record<string, unknown> | undefined, result: Record<string, unknown>): boolean {
  return known !== undefined && JSON.stringify(known) === JSON.stringify(result);
}

function isResult(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An id the client cannot have used: the replayed requests' answers are recognised by it, and not passed on. */
const REPLAY_ID_PREFIX = `custody-opening-replay-${randomBytes(8).toString("hex")}-`;

/**
 * The stdio opening, answered before the server's modules (the SDK, zod, the tool definitions) are
 * loaded: `initialize` (then `notifications/initialized`), `server/discover`, `tools/list` and `ping`
 * are answered from the answers the server itself gave the same requests in the same configuration,
 * recorded in the user's cache folder (answers-file.ts, opening-key.ts). The first request it has no
 * answer for, the end of the input, a `tools/list` answered, or a quiet moment after an answer, loads
 * the server: the messages the front took are replayed into it first (so its session is as if it
 * had read them), their answers compared with the ones given (a stale one is rewritten, and a 2025
 * client is told the tools changed), and from then on every line goes through. The server's answers
 * to the opening requests the front had none for are recorded for the next start.
 * Resolves when the server is to be loaded (the streams it is to use are handed over then).
 */
export function openingFront(options: OpeningFrontOptions): Promise<void> {
  const configuration = openingConfigurationKey(options.entry, options.argv ?? process.argv.slice(2), options.env ?? process.env);
  const directory = configuration === null ? null : options.answersDirectory();
  if (configuration === null || directory === null) return Promise.resolve();
  return new Promise((load) => new OpeningFront(directory, configuration, load).start());
}

class OpeningFront {
  readonly #answers: OpeningAnswers;
  #mode: Mode = "answering";
  #phase: OpeningPhase = { kind: "fresh" };
  readonly #taken: Taken[] = [];
  readonly #lines = new LineSplitter({ line: (line) => this.#line(line), unread: (bytes) => this.#unread(bytes) });
  readonly #toServer = new PassThrough();
  #waitingForServer = false;
  #quiet: NodeJS.Timeout | undefined;
  #loaded = false;
  /** Replayed requests, by their replay id: what the front answered them with. */
  readonly #replays = new Map<string, Taken>();
  /** The client's opening requests the server answers: recorded once answered (by their JSON id). */
  readonly #recording = new Map<string, string>();
  #changed = false;
  #staleTools = false;
  readonly #stale: string[] = [];
  #listChanged = false;
  #persisting = false;
  #output = "";
  #inputEnded = false;
  /** A message the server answers itself came: no more opening request is recorded. */
  #openingOver = false;

  constructor(
    private readonly directory: string,
    private readonly configuration: string,
    private readonly load: () => void,
  ) {
    this.#answers = readOpeningAnswers(directory, configuration);
  }

  start(): void {
    // A client that went away cannot read the answers: said as the server says it (stdio-server.ts), never an uncaught error.
    process.stdout.on("error", (error) => {
      if (process.stdout.listenerCount("error") === 1) log(`stdout: ${error.message}; answers can no longer be delivered`);
    });
    process.stdin.on("data", this.#read);
    process.stdin.once("end", this.#ended);
    process.stdin.once("close", this.#ended);
    if (this.#answers.size === 0) this.#handOver();
    else this.#waitQuietly();
  }

  readonly #read = (chunk: Buffer) => {
    if (this.#forwarding()) return this.#forward(chunk);
    const rest = this.#lines.split(chunk, () => this.#forwarding());
    if (!this.#forwarding()) return;
    this.#forwardRest();
    if (rest.length > 0) this.#forward(rest);
  };

  /** A line too long for the server's transport: the server's to refuse, as it does; from here every byte goes through. */
  #unread(bytes: Buffer): void {
    this.#startForwarding();
    this.#forward(bytes);
  }

  /** Every line goes through unread (a method, so that the checks after a step that may change the mode read it again). */
  #forwarding(): boolean {
    return this.#mode === "forwarding";
  }

  readonly #ended = () => {
    if (this.#inputEnded) return;
    this.#inputEnded = true;
    this.#forwardRest();
    this.#toServer.end();
  };

  #forwardRest(): void {
    this.#startForwarding();
    for (const bytes of this.#lines.takePartial()) this.#forward(bytes);
  }

  #startForwarding(): void {
    if (this.#mode === "answering") this.#handOver();
    this.#mode = "forwarding";
  }

  #forward(bytes: Buffer): void {
    if (this.#inputEnded && this.#mode === "forwarding" && this.#toServer.writableEnded) return;
    // Many writes may be refused before the server drains (a long line's pieces): one wait for them all.
    if (this.#toServer.write(bytes) || this.#waitingForServer) return;
    this.#waitingForServer = true;
    process.stdin.pause();
    this.#toServer.once("drain", () => {
      this.#waitingForServer = false;
      process.stdin.resume();
    });
  }

  #line(line: Buffer): void {
    const text = line.toString("utf8").replace(/\r?\n$/, "");
    // A line the server refuses (not JSON, a key named twice, an id a number cannot carry, no JSON-RPC message) is the server's to answer.
    const read = text.trim() === "" ? undefined : readClientMessage(text);
    const parsed = read !== undefined && "message" in read ? read.message : undefined;
    const message = clientMessage(parsed);
    if (this.#mode === "answering") {
      if (text.trim() === "") return;
      if (message !== null && this.#answer(message)) return;
      this.#handOver();
    }
    this.#record(message, idOf(parsed));
    this.#forward(line);
  }

  /** Answers from the cache, or false. */
  #answer(message: ClientMessage): boolean {
    const step = openingStep(this.#phase, message);
    if (step.kind === "notice") {
      this.#taken.push({ message });
      return true;
    }
    if (step.kind !== "answerable") return false;
    const result = this.#answers.get(step.fingerprint);
    if (result === undefined) return false;
    this.#phase = step.next;
    this.#taken.push({ message, fingerprint: step.fingerprint });
    clearTimeout(this.#quiet);
    const written = () => (message.method === "tools/list" ? setImmediate(() => this.#handOver()) : this.#waitQuietly());
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`, written);
    return true;
  }

  /**
   * After the server is loaded: the client's opening requests it answers are recorded; the first other
   * message ends the opening. Lines are read until every recorded answer came: an answer is known by
   * its id alone, so a second request with the same id (whatever it is) leaves both unrecorded.
   */
  #record(message: ClientMessage | null, id: string | null): void {
    if (this.#mode !== "recording") return;
    if (id !== null && this.#recording.has(id)) {
      this.#recording.delete(id);
      this.#openingOver = true;
    } else if (message !== null && !this.#openingOver) {
      const step = openingStep(this.#phase, message);
      if (step.kind === "other") this.#openingOver = true;
      else if (step.kind === "answerable" && id !== null) {
        this.#phase = step.next;
        this.#recording.set(id, step.fingerprint);
      }
    }
    if (this.#openingOver && this.#recording.size === 0) this.#mode = "forwarding";
  }

  #waitQuietly(): void {
    clearTimeout(this.#quiet);
    this.#quiet = setTimeout(() => this.#handOver(), QUIET_LOAD_MS);
  }

  #handOver(): void {
    if (this.#loaded) return;
    this.#loaded = true;
    clearTimeout(this.#quiet);
    this.#mode = "recording";
    let next = 0;
    for (const taken of this.#taken) {
      if (taken.fingerprint === undefined) this.#toServer.write(`${JSON.stringify(taken.message)}\n`);
      else {
        const id = `${REPLAY_ID_PREFIX}${next++}`;
        this.#replays.set(id, taken);
        this.#toServer.write(`${JSON.stringify({ ...taken.message, id })}\n`);
      }
    }
    const answered = this.#taken.filter((taken) => taken.fingerprint !== undefined).map((taken) => taken.message.method);
    if (answered.length > 0) log(`answered ${answered.join(", ")} from the opening cache; loading the server`);
    handOverClientStdio({
      input: this.#toServer,
      output: this.#serverOutput(),
      abandon: () => {
        process.stdin.off("data", this.#read);
        process.stdin.destroy();
      },
    });
    this.load();
  }

  /** The server's answers: those to the replayed requests are compared and kept back; those to the client's opening requests are recorded. */
  #serverOutput(): Writable {
    return new Writable({
      decodeStrings: false,
      write: (chunk: string | Buffer, encoding, done) => {
        if (this.#replays.size === 0 && this.#recording.size === 0 && this.#output === "") {
          process.stdout.write(chunk, encoding as BufferEncoding, () => done());
          return;
        }
        this.#output += String(chunk);
        const lines: string[] = [];
        for (let newline = this.#output.indexOf("\n"); newline !== -1; newline = this.#output.indexOf("\n")) {
          lines.push(this.#output.slice(0, newline + 1));
          this.#output = this.#output.slice(newline + 1);
        }
        const passed = lines.filter((line) => !(line.includes(REPLAY_ID_PREFIX) && this.#replayAnswered(line)));
        // Handed on before they are read for the cache: recording must not delay an answer.
        if (passed.length === 0) done();
        else process.stdout.write(passed.join(""), () => done());
        if (this.#recording.size > 0) for (const line of passed) this.#recordAnswer(line);
        if (this.#replays.size === 0 && this.#recording.size === 0) this.#settle();
        if (this.#openingOver && this.#recording.size === 0 && this.#mode === "recording") this.#forwardRest();
      },
    });
  }

  /** An answer to a replayed request: compared with the one the client was given, and kept back. */
  #replayAnswered(line: string): boolean {
    const answer = parsedAnswer(line);
    const replayed = typeof answer?.id === "string" ? this.#replays.get(answer.id) : undefined;
    if (answer === null || replayed === undefined) return false;
    this.#replays.delete(answer.id as string);
    this.#compare(replayed, answer);
    return true;
  }

  /** The server's answer to one of the client's opening requests: recorded for the next start. */
  #recordAnswer(line: string): void {
    const answer = parsedAnswer(line);
    const key = answer === null ? undefined : JSON.stringify(answer.id);
    const fingerprint = key === undefined ? undefined : this.#recording.get(key);
    if (answer === null || fingerprint === undefined) return;
    this.#recording.delete(key as string);
    if (isResult(answer.result)) this.#keep(fingerprint, answer.result);
  }

  #compare(replayed: Taken, answer: ServerAnswer): void {
    const fingerprint = replayed.fingerprint as string;
    const given = this.#answers.get(fingerprint);
    const own = isResult(answer.result) ? answer.result : undefined;
    if (replayed.message.method === "initialize" || replayed.message.method === "server/discover")
      this.#listChanged = (own as { capabilities?: { tools?: { listChanged?: unknown } } } | undefined)?.capabilities?.tools?.listChanged === true;
    if (own !== undefined && sameAnswer(given, own)) return;
    this.#stale.push(replayed.message.method);
    if (replayed.message.method === "tools/list") this.#staleTools = true;
    if (own === undefined) {
      this.#answers.delete(fingerprint);
      this.#changed = true;
    } else this.#keep(fingerprint, own);
  }

  /** The server's answer kept for the next start; the file is written again only when it is new or changed. */
  #keep(fingerprint: string, result: Record<string, unknown>): void {
    if (sameAnswer(this.#answers.get(fingerprint), result)) return;
    this.#answers.delete(fingerprint);
    this.#answers.set(fingerprint, result);
    this.#changed = true;
  }

  /** Every replayed request answered and every recorded one: the cache is written once, after the answers went out. */
  #settle(): void {
    if (this.#stale.length > 0) {
      const told = this.#staleTools && this.#phase.kind === "legacy" && this.#listChanged;
      if (told) process.stdout.write('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n');
      log(
        `the opening cache's answer to ${[...new Set(this.#stale)].join(", ")} differed from the server's own: rewritten` +
          (told ? "; the client was told the tools changed (notifications/tools/list_changed)" : ""),
      );
      this.#stale.length = 0;
      this.#staleTools = false;
    }
    if (!this.#changed || this.#persisting) return;
    this.#persisting = true;
    setImmediate(() => {
      this.#persisting = false;
      this.#changed = false;
      writeOpeningAnswers(this.directory, this.configuration, this.#answers);
    });
  }
}
